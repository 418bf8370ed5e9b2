import type { CertificationType, CertificationTypeInput, TierRequirement } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createType, deleteRequirement, deleteType, fetchConsistency, fetchRenewingItems, fetchRequirements, fetchTypes, putRequirement, updateType } from '../api.ts'

/** Query keys of Certification Management. */
export const adminKeys = {
  all: ['certification-admin'] as const,
  types: () => [...adminKeys.all, 'types'] as const,
  requirements: () => [...adminKeys.all, 'tier-requirements'] as const,
  consistency: () => [...adminKeys.all, 'consistency'] as const,
  renewingItems: () => [...adminKeys.all, 'renewing-items'] as const,
}

/** The courses and exams the type form offers under "Renewed by" (fetched when the form opens). */
export const useRenewingItems = () => useQuery({ queryKey: adminKeys.renewingItems(), queryFn: fetchRenewingItems })

/** The figures' consistency check; checked again after every change on the page (the lists' refresh invalidates it too). */
export const useConsistency = () => useQuery({ queryKey: adminKeys.consistency(), queryFn: fetchConsistency, staleTime: 0 })

/** Every certification type. */
export const useCertificationTypes = () => useQuery({ queryKey: adminKeys.types(), queryFn: fetchTypes })

/** Every tier requirement. */
export const useTierRequirements = () => useQuery({ queryKey: adminKeys.requirements(), queryFn: fetchRequirements })

/** Fetches the types and the tier requirements again (Try Again, and after any change). */
export const useRefreshCertificationAdmin = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all })
}

/** Creates a type, or saves the one being edited (`id`); the page refreshes the lists once the dialog closes. */
export const useSaveType = (id: number | null, onSaved: (saved: CertificationType) => void) =>
  useMutation({
    mutationFn: (body: CertificationTypeInput) => (id !== null ? updateType(id, body) : createType(body)),
    onSuccess: (answer) => onSaved(answer.certification),
  })

/** Deletes a type; `onDeleted` runs first, then the lists are fetched again. */
export const useDeleteType = (onDeleted: (type: CertificationType) => void) => {
  const refresh = useRefreshCertificationAdmin()
  return useMutation({
    mutationFn: (t: CertificationType) => deleteType(t.id),
    onSuccess: async (_, t) => {
      onDeleted(t)
      await refresh()
    },
  })
}

/** Adds a type to a tier or switches whether it is required; `onPut` runs first, then the lists are fetched again. */
export const usePutRequirement = (onPut: (body: Parameters<typeof putRequirement>[0]) => void) => {
  const refresh = useRefreshCertificationAdmin()
  return useMutation({
    mutationFn: putRequirement,
    onSuccess: async (_, body) => {
      onPut(body)
      await refresh()
    },
  })
}

/** Removes a type from a tier; `onRemoved` runs first, then the lists are fetched again. */
export const useDeleteRequirement = (onRemoved: (requirement: TierRequirement) => void) => {
  const refresh = useRefreshCertificationAdmin()
  return useMutation({
    mutationFn: (r: TierRequirement) => deleteRequirement(r.id),
    onSuccess: async (_, r) => {
      onRemoved(r)
      await refresh()
    },
  })
}
