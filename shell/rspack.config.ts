import { rspack, type Configuration } from '@rspack/core'
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack'
import { baseConfig, hostShared, StartupPreloadPlugin } from '@portal/build-kit'

const dir = import.meta.dirname

const config: Configuration = {
  ...baseConfig({ dir, publicPath: '/', uniqueName: 'shell' }),
  plugins: [
    new rspack.HtmlRspackPlugin({
      title: 'Learning Portal',
      templateContent:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Learning Portal</title><link rel="icon" href="data:,"><link rel="preload" href="/remote-registry.json" as="fetch" crossorigin="anonymous"></head><body><noscript>This portal needs JavaScript.</noscript><div id="root"></div></body></html>',
    }),
    // React Query is provided for the remotes' pages (fetched with them, see bootstrap.tsx), not preloaded on every page.
    new StartupPreloadPlugin({ lazy: ['@tanstack/react-query'] }),
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared: hostShared,
      // The shell's own late request for a singleton (React Query, see bootstrap.tsx) takes its copy
      // and does not first load every registered remote to compare versions ("version-first").
      shareStrategy: 'loaded-first',
      dts: false,
      // Browser-only build: drops the Node loading paths from the MF runtime. The plugin that
      // turns a remote that is down into a fallback is registered by ui-kit's loader at run time.
      experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
    }),
  ],
  optimization: { minimize: true },
}

export default config
