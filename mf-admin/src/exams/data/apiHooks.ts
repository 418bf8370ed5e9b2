import type { Exam, ExamInput } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createExam, deleteExam, fetchAdminExams, updateExam } from '../api.ts'

/** Query keys of the admin exams feature. */
export const examKeys = {
  all: ['admin-exams'] as const,
  list: () => [...examKeys.all, 'list'] as const,
}

/** Every exam (the Exams tab, and the exams a group's report may track). */
export const useAdminExams = () => useQuery({ queryKey: examKeys.list(), queryFn: fetchAdminExams })

/** Fetches the exams again (after a save, a delete or an assignment). */
export const useRefreshExams = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: examKeys.all })
}

/** Saves the exam form: updates `exam`, or creates one when it is null. */
export const useSaveExam = (exam: Exam | null, on: { onSuccess: () => void; onError: () => void }) =>
  useMutation({ mutationFn: (input: ExamInput) => (exam ? updateExam(exam.id, input) : createExam(input)), onSuccess: on.onSuccess, onError: on.onError })

/** Deletes an exam; `onDeleted` runs before the exams are fetched again. */
export const useDeleteExam = (onDeleted: (id: number) => void) => {
  const refresh = useRefreshExams()
  return useMutation({
    mutationFn: deleteExam,
    onSuccess: async (_, id) => {
      onDeleted(id)
      await refresh()
    },
  })
}
