import { Exam, ItemAnalysis, type ItemAnalysisQuery } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** The query string of an analysis (only what is set). */
export const analysisQuery = (q: ItemAnalysisQuery) => {
  const params = new URLSearchParams()
  if (q.kind) params.set('kind', q.kind)
  if (q.start_date) params.set('start_date', q.start_date)
  if (q.end_date) params.set('end_date', q.end_date)
  const s = params.toString()
  return s ? `?${s}` : ''
}

const path = (examId: number) => `/admin/exams/${encodeURIComponent(String(examId))}/item-analysis`

/** The query key of one analysis (under the exams feature's keys). */
export const itemAnalysisKey = (examId: number, q: ItemAnalysisQuery) => ['admin-exams', 'item-analysis', examId, q] as const

export const fetchItemAnalysis = (examId: number, q: ItemAnalysisQuery) => api.get(`${path(examId)}${analysisQuery(q)}`, ItemAnalysis)
export const fetchItemAnalysisWorkbook = (examId: number, q: ItemAnalysisQuery) => api.getFile(`${path(examId)}/export${analysisQuery(q)}`)

const questionPath = (examId: number, questionId: number) => `/admin/exams/${encodeURIComponent(String(examId))}/questions/${encodeURIComponent(String(questionId))}`
/** Retires a question from the pool (kept for its attempts, never offered again), or puts it back. */
export const retireQuestion = (examId: number, questionId: number) => api.post(`${questionPath(examId, questionId)}/retire`, {}, Exam)
export const restoreQuestion = (examId: number, questionId: number) => api.post(`${questionPath(examId, questionId)}/restore`, {}, Exam)
