import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { rspack, type Compiler, type Configuration, type RuleSetRule } from '@rspack/core'
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack'
import { REMOTES, type RemoteName } from '@portal/contracts'

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

const distOf = (pkg: string) => path.dirname(fileURLToPath(import.meta.resolve(pkg)))
const esm = (pkg: string) => ({ [path.join(distOf(pkg), 'index.cjs')]: path.join(distOf(pkg), 'index.js') })

/**
 * The federation glue a container carries, as ES modules: the plugin imports the bundler runtime's
 * CommonJS build by path, which drags in the whole SDK (its Node.js loaders, manifest snapshots,
 * logger) since CommonJS is not tree-shaken; its ESM build lets the unused parts go.
 */
export const esmFederationRuntime = esm('@module-federation/webpack-bundler-runtime')

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
    resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], alias: esmFederationRuntime },
    module: { rules: [typescriptRule] },
    performance: { hints: false },
    devtool: false,
  }
}

/**
 * What the remotes use of React Query. The first remote on a page provides the singleton for all
 * the others, so every build ships the same tree-shaken copy: these exports, the union over the
 * remotes (build-kit's test keeps it complete), not the whole package.
 */
export const REACT_QUERY_EXPORTS = ['QueryClient', 'QueryClientProvider', 'keepPreviousData', 'useMutation', 'useQueries', 'useQuery', 'useQueryClient']

const require = createRequire(import.meta.url)

/**
 * The zod the browser builds share: browser-zod.ts (the `z` functions the portal calls), in the
 * version of the zod installed, so one copy serves the page (the shell's, loaded on its first page).
 */
export const BROWSER_ZOD = fileURLToPath(new URL('./browser-zod.ts', import.meta.url))
const zodVersion = (require('zod/package.json') as { version: string }).version

/**
 * The singletons the shell provides and the remotes share, declared once. The ranges span the
 * major, so a shell and a remote built a minor or patch apart share one copy (the shell's wins,
 * a remote's own copy is the fallback when it runs alone).
 */
export const sharedSingletons = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.0.0', treeShaking: { mode: 'runtime-infer' as const, usedExports: REACT_QUERY_EXPORTS } },
  zod: { singleton: true, requiredVersion: '^4.0.0', version: zodVersion, import: BROWSER_ZOD },
}

/** The shell's share: the singletons, plus react-router (tree-shaken: the remotes get navigation as a prop). */
export const hostShared = {
  ...sharedSingletons,
  'react-router': { singleton: true, requiredVersion: '^7.0.0', treeShaking: { mode: 'runtime-infer' as const } },
}

/**
 * A remote's build: `mf-manifest.json` at its root, the MF runtime taken from the shell
 * (externalRuntime), browser-only. Its public path is `auto`: chunks load from wherever its
 * manifest was found, so one build serves behind the gateway or from an origin of its own.
 * The exposed modules must be exactly those of its contract (`REMOTES` in @portal/contracts).
 */
export function remoteConfig(opts: { dir: string; name: RemoteName; exposes: Record<string, string> }): Configuration {
  const exposed = Object.keys(opts.exposes)
    .map((k) => k.replace(/^\.\//, ''))
    .sort()
  const promised = [...REMOTES[opts.name].modules].sort()
  if (exposed.join() !== promised.join())
    throw new Error(`${opts.name} exposes ${exposed.join(', ')} but its contract names ${promised.join(', ')} (packages/contracts/src/remotes.ts)`)
  const base = baseConfig({ dir: opts.dir, publicPath: 'auto', uniqueName: opts.name })
  return {
    ...base,
    // A remote's runtime glue as ES modules too (in the shell, which provides the runtime, the ESM build weighs more).
    resolve: { ...base.resolve, alias: { ...esmFederationRuntime, ...esm('@module-federation/runtime') } },
    plugins: [
      new ModuleFederationPlugin({
        name: opts.name,
        filename: 'remoteEntry.js',
        exposes: opts.exposes,
        shared: sharedSingletons,
        // A singleton first asked for late (react-dom by a lazily loaded dialog) takes the copy already
        // loaded instead of first loading every registered remote's entry to compare versions
        // ("version-first"): as in the shell, one set of versions is built for all of them.
        shareStrategy: 'loaded-first',
        manifest: true,
        dts: false,
        experiments: { externalRuntime: true, optimization: { target: 'web' } },
      }),
    ],
  }
}

/**
 * Lets the page fetch the shell's start-up chunks with its first script (issue 30 item 7): index.html
 * gets a `<link rel="preload">` for each chunk the async boundary (`import('./bootstrap.tsx')`) waits
 * for: the bootstrap's chunk group and the shared singletons the shell provides (react, react-dom,
 * react-router, zod). Without it they are requested only once main.js has run, a round trip later.
 * `lazy` names the singletons the shell provides for the remotes' pages but does not start with
 * (React Query): they stay off the first load.
 */
export class StartupPreloadPlugin {
  readonly lazy: ReadonlySet<string>

  constructor(opts: { lazy?: readonly string[] } = {}) {
    this.lazy = new Set(opts.lazy)
  }

  apply(compiler: Compiler) {
    const lazy = this.lazy
    compiler.hooks.compilation.tap('StartupPreloadPlugin', (compilation) => {
      rspack.HtmlRspackPlugin.getCompilationHooks(compilation).beforeEmit.tap('StartupPreloadPlugin', (data) => {
        const { chunks = [], publicPath = '' } = compilation.getStats().toJson({ all: false, ids: true, chunks: true, chunkModules: true, chunkRelations: true, publicPath: true })
        const modulesOf = (c: (typeof chunks)[number]) => c.modules ?? []
        const provided = new Set(
          chunks
            .filter((c) => c.initial)
            .flatMap(modulesOf)
            .map((m) => /^provide shared module \([^)]*\) (.+)@[^@ ]+ = (.+)$/.exec(m.name ?? ''))
            .filter((p) => p !== null && !lazy.has(p[1]!))
            .map((p) => p![2]!),
        )
        const initial = new Set(chunks.filter((c) => c.initial).map((c) => c.id))
        // Loaded from the entry itself (not from a lazy page of the shell's), holding the bootstrap or a provided singleton.
        const startup = chunks.filter(
          (c) =>
            !c.initial &&
            (c.parents ?? []).some((p) => initial.has(p)) &&
            modulesOf(c).some((m) => /[\\/]src[\\/]bootstrap\.tsx\b/.test(m.name ?? '') || provided.has(m.nameForCondition ?? '')),
        )
        const ids = new Set(startup.flatMap((c) => [c.id, ...(c.siblings ?? [])]))
        const files = chunks.filter((c) => ids.has(c.id) && !c.initial).flatMap((c) => c.files ?? [])
        const links = files.filter((f) => f.endsWith('.js')).map((f) => `<link rel="preload" href="${publicPath}${f}" as="script">`)
        data.html = data.html.replace('</head>', `${links.join('')}</head>`)
        return data
      })
    })
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
