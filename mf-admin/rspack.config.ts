import { remoteConfig } from '@portal/build-kit'

const config = remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_admin',
  exposes: { './AdminDashboard': './src/AdminDashboard.tsx' },
})

// The pre-upload editor's worker (worker.config.ts, built first) goes out as a hashed asset, as it is.
config.module = {
  ...config.module,
  rules: [...(config.module?.rules ?? []), { test: /[\\/]\.worker-build[\\/].*\.js$/, type: 'asset/resource', generator: { filename: 'assets/[name].[contenthash:10][ext]' } }],
}

export default config
