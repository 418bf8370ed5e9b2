import { remoteConfig } from '@portal/build-kit'

export default remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_learner',
  exposes: { './UserDashboard': './src/UserDashboard.tsx' },
})
