import type { PromotionRequest, TeamQuery, TierLevel } from '@portal/contracts'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { technicianProfileKey } from '../../shared/index.ts'
import { decidePromotion, fetchMember, fetchPendingPromotions, fetchTeam, requestPromotion, updateRevPay } from '../api.ts'

/** Query keys of the team screens (the dashboard, a member, pending promotions). */
export const teamKeys = {
  all: ['team'] as const,
  list: (query: TeamQuery) => [...teamKeys.all, 'list', query] as const,
  /** Under the profile's key: what the profile sections change (a proof deleted) refreshes the member detail too. */
  member: (userId: string) => [...technicianProfileKey(userId), 'team-member'] as const,
  promotions: () => [...teamKeys.all, 'promotions', 'pending'] as const,
}

/** One page of the team with the screen's filters and order; the last page stays up while the next loads. */
export const useTeam = (query: TeamQuery) => useQuery({ queryKey: teamKeys.list(query), queryFn: () => fetchTeam(query), placeholderData: keepPreviousData })

/** A team member's detail (no user id, no fetch). */
export const useTeamMember = (userId: string) => useQuery({ queryKey: teamKeys.member(userId), queryFn: () => fetchMember(userId), enabled: userId !== '' })

/** The managers' promotion requests awaiting an admin's decision. */
export const usePendingPromotions = () => useQuery({ queryKey: teamKeys.promotions(), queryFn: fetchPendingPromotions })

/** An admin's answer to a promotion request, with an optional note. */
export interface PromotionDecision {
  request: PromotionRequest
  approve: boolean
  note: string
}

/** Approves or denies a request; `onDecided` runs first, then the team screens are fetched again (the tier shows in the table and on the member's page). */
export const useDecidePromotion = (onDecided: (decision: PromotionDecision) => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ request, approve, note }: PromotionDecision) => decidePromotion(request.id, approve, note),
    onSuccess: async (_answer, decision) => {
      onDecided(decision)
      await queryClient.invalidateQueries({ queryKey: teamKeys.all })
    },
  })
}

/** Sets the member's rev/pay ratio; `onSaved` runs first, then the member's detail is fetched again. */
export const useUpdateRevPay = (userId: string, onSaved: (ratio: number) => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (ratio: number) => updateRevPay(userId, ratio),
    onSuccess: async (_a, ratio) => {
      onSaved(ratio)
      await queryClient.invalidateQueries({ queryKey: teamKeys.member(userId) })
    },
  })
}

/** Asks an admin to promote the member; `onRequested` runs first, then the team screens and the member's detail are fetched again. */
export const useRequestPromotion = (userId: string, onRequested: () => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ newTier, justification }: { newTier: TierLevel; justification: string }) => requestPromotion(userId, newTier, justification),
    onSuccess: async () => {
      onRequested()
      await Promise.all([teamKeys.all, teamKeys.member(userId)].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    },
  })
}
