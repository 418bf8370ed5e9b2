import { remoteConfig } from '@portal/build-kit'

export default remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_admin',
  exposes: { './AdminDashboard': './src/AdminDashboard.tsx' },
})
