import type { LrsForwarding, LrsForwardingInput } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { fetchLrsForwarding, saveLrsForwarding, testLrsForwarding } from '../api.ts'

/** Query keys of the LRS forwarding feature. */
export const lrsForwardingKeys = { settings: ['lrs-forwarding'] as const }

/** The external LRS's settings (never its password). */
export const useLrsForwarding = () => useQuery({ queryKey: lrsForwardingKeys.settings, queryFn: fetchLrsForwarding })

/** Saves the settings; the answer is the settings as stored. */
export const useSaveLrsForwarding = (onSaved: (saved: LrsForwarding) => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: LrsForwardingInput) => saveLrsForwarding(body),
    onSuccess: (saved) => {
      queryClient.setQueryData(lrsForwardingKeys.settings, saved)
      onSaved(saved)
    },
  })
}

/** Asks the stored LRS's `about` with the stored credentials. */
export const useTestLrsForwarding = () => useMutation({ mutationFn: testLrsForwarding })
