import path from 'node:path'
import { rspack, type Configuration, type RuleSetRule } from '@rspack/core'
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack'

/** Browsers the portal supports (modern evergreen). */
const TARGETS = 'chrome >= 111, firefox >= 111, safari >= 16.4'

/**
 * TS/TSX through swc. Workspace packages are TS source reached through node_modules symlinks;
 * rspack resolves them to their real path (packages/*), so excluding node_modules is safe.
 */
export const typescriptRule: RuleSetRule = {
  test: /\.tsx?$/,
  exclude: /node_modules/,
  loader: 'builtin:swc-loader',
  options: {
    jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
    env: { targets: TARGETS },
  },
  type: 'javascript/auto',
}

/** Production settings every browser build shares: hashed assets under `assets/`, no source maps. */
export function baseConfig(opts: { dir: string; publicPath: string; uniqueName: string }): Configuration {
  return {
    mode: 'production',
    context: opts.dir,
    entry: { main: './src/index.ts' },
    output: {
      path: path.join(opts.dir, 'dist'),
      publicPath: opts.publicPath,
      filename: 'assets/[name].[contenthash:10].js',
      chunkFilename: 'assets/[name].[contenthash:10].js',
      uniqueName: opts.uniqueName,
      clean: true,
    },
    resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    module: { rules: [typescriptRule] },
    performance: { hints: false },
    devtool: false,
  }
}

/** The singletons a remote shares with the shell; the shell's copies win, the remote's are the fallback. */
export const remoteShared = {
  react: { singleton: true, requiredVersion: '^19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '^19.3.1' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.108.0' },
}

/**
 * A remote's build: served at `/remotes/<name with dashes>/`, `mf-manifest.json` at its root, the
 * MF runtime taken from the shell (externalRuntime), browser-only.
 */
export function remoteConfig(opts: { dir: string; name: string; exposes: Record<string, string> }): Configuration {
  return {
    ...baseConfig({ dir: opts.dir, publicPath: `/remotes/${opts.name.replace(/_/g, '-')}/`, uniqueName: opts.name }),
    plugins: [
      new ModuleFederationPlugin({
        name: opts.name,
        filename: 'remoteEntry.js',
        exposes: opts.exposes,
        shared: remoteShared,
        manifest: true,
        dts: false,
        experiments: { externalRuntime: true, optimization: { target: 'web' } },
      }),
    ],
  }
}

/** Runs one build (or watches with `--watch`), printing the assets; a failed build sets the exit code. */
export function runBuild(config: Configuration, argv: string[] = process.argv): void {
  const compiler = rspack(config)
  const report = (err: Error | null, stats: { hasErrors(): boolean; toString(o: object): string } | undefined) => {
    if (err) {
      console.error(err)
      process.exitCode = 1
      return
    }
    if (!stats) return
    console.log(stats.toString({ colors: false, assets: true, modules: false, chunks: false }))
    if (stats.hasErrors()) process.exitCode = 1
  }
  if (argv.includes('--watch')) compiler.watch({}, report)
  else
    compiler.run((err, stats) => {
      report(err, stats)
      compiler.close(() => {})
    })
}
