// The exams feature's public face: the Exams tab (the admin's first screen) and the exam list. The
// form (exams/ExamForm.tsx) and the question import load lazily when they open.
export { ExamsTab } from './ExamsTab.tsx'
export { examKeys, useAdminExams } from './data/apiHooks.ts'
