import { ExamSubmissionResult, ExamSummary, StartAttemptResponse, type Answer } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** What a learner reads of an exam before starting it (GET /exams/{id} without the pool's answers). */
export const ExamIntro = ExamSummary.pick({
  id: true,
  name: true,
  time_limit: true,
  pass_score: true,
  total_questions: true,
  exam_type: true,
  max_attempts: true,
  open_attempt: true,
})
export type ExamIntro = ReturnType<typeof ExamIntro.parse>

const examPath = (id: string | number) => `/exams/${encodeURIComponent(String(id))}`

export const fetchExamIntro = (id: string) => api.get(examPath(id), ExamIntro)
export const startAttempt = (id: string) => api.post(`${examPath(id)}/attempts`, {}, StartAttemptResponse)
export const saveAnswers = (attemptId: string, answers: Answer[], questionIds: number[]) =>
  api.put(`/exams/attempts/${encodeURIComponent(attemptId)}/answers`, { answers, questionIds })
export const submitExam = (id: string, attemptId: string, answers: Answer[], questionIds: number[]) =>
  api.post(`${examPath(id)}/submit`, { attemptId, answers, questionIds }, ExamSubmissionResult)
