import path from 'node:path'
import type { Configuration } from '@rspack/core'
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack'

const dir = import.meta.dirname

/** The same singletons as the shell; the shell's copies win, ours are the fallback. */
const shared = {
  react: { singleton: true, requiredVersion: '^19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '^19.3.1' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.108.0' },
}

const config: Configuration = {
  mode: 'production',
  context: dir,
  entry: { main: './src/index.ts' },
  output: {
    path: path.join(dir, 'dist'),
    publicPath: '/remotes/mf-exams/',
    filename: 'assets/[name].[contenthash:10].js',
    chunkFilename: 'assets/[name].[contenthash:10].js',
    uniqueName: 'mf_exams',
    clean: true,
  },
  resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        // Workspace packages (TS source) resolve to their real path outside node_modules.
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
          env: { targets: 'chrome >= 111, firefox >= 111, safari >= 16.4' },
        },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [
    new ModuleFederationPlugin({
      name: 'mf_exams',
      filename: 'remoteEntry.js',
      exposes: { './ExamPage': './src/ExamPage.tsx', './ExamResultsPage': './src/ExamResultsPage.tsx' },
      shared,
      manifest: true,
      dts: false,
      // Browser-only build: drops the Node loading paths from the MF runtime.
      experiments: { externalRuntime: true, optimization: { target: 'web' } },
    }),
  ],
  performance: { hints: false },
  devtool: false,
}

export default config
