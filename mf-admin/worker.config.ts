import path from 'node:path'
import type { Configuration } from '@rspack/core'
import { typescriptRule } from '@portal/build-kit'

/**
 * The SCORM pre-upload editor's Web Worker, built on its own before the remote: a worker chunk of
 * the remote's build would carry the Module Federation runtime, which takes its core from the host
 * page (`externalRuntime`) and a worker has none. The remote ships this file as an asset
 * (rspack.config.ts) and starts it from there, on its own origin.
 */
export const WORKER_BUILD_DIR = path.join(import.meta.dirname, '.worker-build')

export default {
  mode: 'production',
  context: import.meta.dirname,
  target: 'webworker',
  entry: { 'scorm-package-worker': './src/courses/scorm-editor/package-worker.ts' },
  output: { path: WORKER_BUILD_DIR, filename: '[name].js', clean: true },
  resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  module: { rules: [typescriptRule] },
  optimization: { splitChunks: false },
  performance: { hints: false },
  devtool: false,
} satisfies Configuration
