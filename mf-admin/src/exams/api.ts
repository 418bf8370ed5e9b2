import { Exam, type ExamInput } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const Exams = Exam.array()
const examPath = (id: number) => `/exams/${encodeURIComponent(String(id))}`

export const fetchAdminExams = () => api.get('/admin/exams', Exams)
export const createExam = (input: ExamInput) => api.post('/exams', input, Exam)
export const updateExam = (id: number, input: ExamInput) => api.put(examPath(id), input, Exam)
export const deleteExam = (id: number) => api.delete(examPath(id))
export const assignExam = (id: number, userIds: string[]) => api.post(`${examPath(id)}/assign`, { userIds })
