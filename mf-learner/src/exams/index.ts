// The exams feature's public face: the dashboard's exam cards and their data.
export { AvailableExamsCard, StatisticsCards, useRefreshOnReturn } from './ExamCards.tsx'
export { examKeys } from './data/apiHooks.ts'
