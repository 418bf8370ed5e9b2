// The results feature's public face: the result handed over by the exam screen, read from the
// route's state, and its view, which mf_exams/ExamResultsPage renders.
export { resultFromState } from './results.ts'
export { ResultsView } from './ResultsView.tsx'
