import { remoteConfig } from '@portal/build-kit'

export default remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_exams',
  exposes: { './ExamPage': './src/ExamPage.tsx', './ExamResultsPage': './src/ExamResultsPage.tsx' },
})
