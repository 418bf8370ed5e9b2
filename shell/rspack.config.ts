import path from 'node:path'
import { rspack, type Configuration } from '@rspack/core'
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack'

const dir = import.meta.dirname

/** Shared singletons: one copy in the page, provided by the shell (remotes reuse it). */
export const shared = {
  react: { singleton: true, requiredVersion: '^19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '^19.3.1' },
  'react-router': { singleton: true, requiredVersion: '^7.18.5', treeShaking: { mode: 'runtime-infer' as const } },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.108.0' },

}

const config: Configuration = {
  mode: 'production',
  context: dir,
  entry: { main: './src/index.ts' },
  output: {
    path: path.join(dir, 'dist'),
    publicPath: '/',
    filename: 'assets/[name].[contenthash:10].js',
    chunkFilename: 'assets/[name].[contenthash:10].js',
    uniqueName: 'shell',
    clean: true,
  },
  resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        // Workspace packages are TS source reached through node_modules symlinks; rspack resolves
        // them to their real path (/work/.../packages/*), so excluding node_modules is safe.
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
          },
          env: { targets: 'chrome >= 111, firefox >= 111, safari >= 16.4' },
        },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [
    new rspack.HtmlRspackPlugin({
      title: 'Learning Portal',
      templateContent:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Learning Portal</title></head><body><noscript>This portal needs JavaScript.</noscript><div id="root"></div></body></html>',
    }),
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared,
      dts: false,
      // Browser-only build: drops the Node loading paths from the MF runtime.
      experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
      runtimePlugins: [path.join(dir, 'src/remotes/error-load-remote.ts')],
    }),
  ],
  optimization: { minimize: true },
  performance: { hints: false },
  devtool: false,
}

export default config
