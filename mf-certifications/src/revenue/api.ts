import {
  LeaderboardResponse,
  ManualRevenueResponse,
  RecentEntriesResponse,
  RevenueHistoryResponse,
  TEAM,
  UsersResponse,
  type LeaderboardPeriod,
  type ManualRevenueBody,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** Everyone who is not an admin (learner §6: the revenue user list excludes admins), by name. */
export const fetchTechnicians = () => api.get('/users', UsersResponse).then((users) => users.filter((u) => !u.is_admin).sort((a, b) => a.name.localeCompare(b.name)))
export const saveRevenue = (body: ManualRevenueBody) => api.post('/revenue/manual-entry', body, ManualRevenueResponse)
export const fetchRecentEntries = () => api.get(`/revenue/recent-entries?limit=${TEAM.recentEntriesLimit}`, RecentEntriesResponse).then((r) => r.entries)
export const fetchRevenueHistory = (userId: string) => api.get(`/revenue/user/${encodeURIComponent(userId)}`, RevenueHistoryResponse).then((r) => r.revenue_history)
/** The top 5 of the caller's team over the period holding `month` (learner §7, §9). */
export const fetchLeaderboard = (period: LeaderboardPeriod, month: string) => api.get(`/revenue/leaderboard?period=${period}&date=${month}`, LeaderboardResponse)
