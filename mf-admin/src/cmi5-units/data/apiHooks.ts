import type { Cmi5WaiveBody } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { fetchLearnerCmi5Status, waiveCmi5Au } from '../api.ts'

/** Query keys of the learners' cmi5 units: one learner's AU statuses in one cmi5 module. */
export const cmi5UnitKeys = {
  all: ['admin-cmi5-units'] as const,
  status: (moduleId: number, userId: string) => [...cmi5UnitKeys.all, moduleId, userId] as const,
}

/** A learner's AU statuses in a cmi5 module. */
export const useLearnerCmi5Status = (moduleId: number, userId: string) =>
  useQuery({ queryKey: cmi5UnitKeys.status(moduleId, userId), queryFn: () => fetchLearnerCmi5Status(moduleId, userId) })

/**
 * Waives an AU for the learner. On success the statuses are fetched again before `onWaived` runs;
 * a refusal (409: waived meanwhile) fetches them again too, so the list shows what the server has.
 */
export const useWaiveCmi5Au = (moduleId: number, userId: string, onWaived: () => void) => {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: cmi5UnitKeys.status(moduleId, userId) })
  return useMutation({
    mutationFn: (body: Omit<Cmi5WaiveBody, 'user_id'>) => waiveCmi5Au(moduleId, { ...body, user_id: userId }),
    onSuccess: async () => {
      await refresh()
      onWaived()
    },
    onError: () => refresh(),
  })
}
