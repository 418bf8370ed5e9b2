// The revenue feature's public face: the leaderboard (a team member's Revenue Overview shows it) and
// the query keys. Revenue entry itself is exposed as mf_certifications/RevenueEntry.
export { revenueKeys, useLeaderboard } from './data/apiHooks.ts'
