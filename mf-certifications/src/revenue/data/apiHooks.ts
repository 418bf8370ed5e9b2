import type { LeaderboardPeriod } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { fetchLeaderboard, fetchRecentEntries, fetchRevenueHistory, fetchTechnicians, saveRevenue } from '../api.ts'

/** Query keys of revenue entry and the leaderboard (a saved entry refreshes them all). */
export const revenueKeys = {
  all: ['revenue'] as const,
  technicians: () => [...revenueKeys.all, 'technicians'] as const,
  recent: () => [...revenueKeys.all, 'recent'] as const,
  history: (userId: string) => [...revenueKeys.all, 'history', userId] as const,
  leaderboard: (period: LeaderboardPeriod, month: string) => [...revenueKeys.all, 'leaderboard', period, month] as const,
}

/** The technicians revenue may be entered for. */
export const useTechnicians = () => useQuery({ queryKey: revenueKeys.technicians(), queryFn: fetchTechnicians })

/** The latest revenue entries. */
export const useRecentEntries = () => useQuery({ queryKey: revenueKeys.recent(), queryFn: fetchRecentEntries })

/** A technician's monthly revenue (the trend). */
export const useRevenueHistory = (userId: string) => useQuery({ queryKey: revenueKeys.history(userId), queryFn: () => fetchRevenueHistory(userId) })

/** The leaderboard of the quarter or year holding `month`; the monthly one comes with the member's detail, so it is not fetched. */
export const useLeaderboard = (period: LeaderboardPeriod, month: string) =>
  useQuery({ queryKey: revenueKeys.leaderboard(period, month), queryFn: () => fetchLeaderboard(period, month), enabled: period !== 'monthly' })

/** Saves a month's revenue and pay; `onSaved` runs first, then every revenue query is fetched again (not awaited: the save is done). */
export const useSaveRevenue = (onSaved: (answer: Awaited<ReturnType<typeof saveRevenue>>) => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveRevenue,
    onSuccess: (answer) => {
      onSaved(answer)
      void queryClient.invalidateQueries({ queryKey: revenueKeys.all })
    },
  })
}
