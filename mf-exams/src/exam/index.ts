// The exam feature's public face: the exam screen (intro, taking, submitting), which
// mf_exams/ExamPage renders, and its query keys.
export { ExamScreen } from './ExamScreen.tsx'
export { examKeys } from './data/apiHooks.ts'
