import { Hono } from 'hono'
import { z } from 'zod'
import {
  LeaderboardQuery,
  LeaderboardResponse,
  ManualRevenueBody,
  ManualRevenueResponse,
  MyLeaderboardResponse,
  RecentEntriesQuery,
  RecentEntriesResponse,
  RevenueHistoryResponse,
  RevenueTrendResponse,
} from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { RevenueService } from './revenue.service.ts'

const UserIdParam = z.object({ id: z.uuid('Invalid user id') })

const tags = ['Revenue']

/** `/revenue`: manual entry and recent entries (admins), a technician's history, the leaderboard, and the caller's own trend and place. */
export const revenueRoutes = (svc: RevenueService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post(
      '/manual-entry',
      doc({ summary: "Records or corrects a technician's revenue of a month", tags, responses: { 200: ManualRevenueResponse, 201: ManualRevenueResponse, 404: null } }),
      requireAdmin,
      validate('json', ManualRevenueBody),
      async (c) => {
        const result = await svc.manualEntry(c.get('actor'), c.req.valid('json'))
        return c.json(result, result.updated ? 200 : 201)
      },
    )
    .get(
      '/recent-entries',
      doc({ summary: 'The latest revenue entries', tags, responses: { 200: RecentEntriesResponse } }),
      requireAdmin,
      validate('query', RecentEntriesQuery),
      async (c) => c.json({ entries: await svc.recent(c.req.valid('query').limit) }),
    )
    .get(
      '/user/:id',
      doc({
        summary: "A technician's revenue history",
        tags,
        roles: 'the technician themself, an admin, or a manager whose scope covers them',
        responses: { 200: RevenueHistoryResponse, 404: null },
      }),
      validate('param', UserIdParam),
      async (c) => c.json({ revenue_history: await svc.history(c.get('actor'), c.req.valid('param').id) }),
    )
    .get(
      '/leaderboard',
      doc({ summary: 'The revenue leaderboard of a period', tags, roles: 'admins and managers (managers see their scope)', responses: { 200: LeaderboardResponse } }),
      validate('query', LeaderboardQuery),
      async (c) => {
        const q = c.req.valid('query')
        return c.json(await svc.leaderboard(c.get('actor'), q.period, q.date))
      },
    )
    .get(
      '/me/trend',
      doc({ summary: "The caller's own revenue by month", tags, roles: 'any signed-in user (their own figures)', responses: { 200: RevenueTrendResponse } }),
      async (c) => c.json(await svc.myTrend(c.get('actor'))),
    )
    .get(
      '/leaderboard/me',
      doc({ summary: "The caller's own place on the leaderboard", tags, roles: 'any signed-in user (their own place)', responses: { 200: MyLeaderboardResponse } }),
      validate('query', LeaderboardQuery),
      async (c) => {
        const q = c.req.valid('query')
        return c.json(await svc.myLeaderboard(c.get('actor'), q.period, q.date))
      },
    )
