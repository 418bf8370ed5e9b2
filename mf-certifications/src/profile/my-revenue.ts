import { formatRatio, formatUsd, MyLeaderboardResponse, RevenueTrendResponse, TEAM, type LeaderboardPeriod } from '@portal/contracts'
import { api, formatMonth } from '@portal/ui-kit'
import { useQuery } from '@tanstack/react-query'
import { revenueKeys } from '../revenue/index.ts'

/** The words of learner §1's privacy departure (DESIGN "Security"), said where amounts are withheld. */
export const AMOUNTS_WITHHELD_NOTE = 'Amounts of other technicians are shown to their managers and admins only.'

const PERIOD_NOUN = { monthly: 'month', quarterly: 'quarter', yearly: 'year' } as const

/** The caller's own revenue queries, under the revenue keys (a saved entry refreshes them too). */
export const myRevenueKeys = {
  trend: () => [...revenueKeys.all, 'mine', 'trend'] as const,
  leaderboard: (period: LeaderboardPeriod) => [...revenueKeys.all, 'mine', 'leaderboard', period] as const,
}

export const fetchMyTrend = () => api.get('/revenue/me/trend', RevenueTrendResponse)
export const fetchMyLeaderboard = (period: LeaderboardPeriod) => api.get(`/revenue/leaderboard/me?period=${period}`, MyLeaderboardResponse)

/** The caller's last 6 months. */
export const useMyTrend = () => useQuery({ queryKey: myRevenueKeys.trend(), queryFn: fetchMyTrend })
/** The company's top 5 of the current month, quarter or year, and the caller's place. */
export const useMyLeaderboard = (period: LeaderboardPeriod) => useQuery({ queryKey: myRevenueKeys.leaderboard(period), queryFn: () => fetchMyLeaderboard(period) })

/** "June 2024" or "April 2024 to June 2024". */
export const periodSpan = (board: Pick<MyLeaderboardResponse, 'from' | 'to'>) =>
  board.from === board.to ? formatMonth(board.from) : `${formatMonth(board.from)} to ${formatMonth(board.to)}`

/** Where the caller stands and their figures, in one sentence. */
export function myStanding(board: MyLeaderboardResponse): string {
  const noun = PERIOD_NOUN[board.period]
  const you = board.you
  if (!you) return `You have no revenue recorded this ${noun} (${periodSpan(board)}).`
  const pay = you.pay_amount === null ? 'no pay entered' : `pay ${formatUsd(you.pay_amount)}`
  const ratio = you.rev_pay_ratio === null ? 'no rev/pay ratio' : `rev/pay ratio ${formatRatio(you.rev_pay_ratio)}`
  const top = you.rank <= TEAM.leaderboardTop ? `, in the top ${TEAM.leaderboardTop}` : ''
  return `You are number ${you.rank} of ${board.ranked} this ${noun} (${periodSpan(board)})${top}: gross revenue ${formatUsd(you.gross_revenue)}, ${pay}, ${ratio}.`
}
