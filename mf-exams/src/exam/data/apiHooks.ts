import { useQuery } from '@tanstack/react-query'
import { fetchExamIntro } from '../api.ts'

/** Query keys of the exams feature. */
export const examKeys = {
  all: ['exams'] as const,
  intro: (id: string) => [...examKeys.all, 'intro', id] as const,
}

/** What the learner reads of an exam before starting it; asked once (a 404 is the answer), not again on focus. */
export const useExamIntro = (id: string) => useQuery({ queryKey: examKeys.intro(id), queryFn: () => fetchExamIntro(id), retry: false, refetchOnWindowFocus: false })
