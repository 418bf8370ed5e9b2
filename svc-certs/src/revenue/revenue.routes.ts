import { Hono } from 'hono'
import { z } from 'zod'
import { LeaderboardQuery, ManualRevenueBody, RecentEntriesQuery } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { RevenueService } from './revenue.service.ts'

const UserIdParam = z.object({ id: z.uuid('Invalid user id') })

/** `/revenue`: manual entry and recent entries (admins), a technician's history, the leaderboard, and the caller's own trend and place. */
export const revenueRoutes = (svc: RevenueService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post('/manual-entry', requireAdmin, validate('json', ManualRevenueBody), async (c) => {
      const result = await svc.manualEntry(c.get('actor'), c.req.valid('json'))
      return c.json(result, result.updated ? 200 : 201)
    })
    .get('/recent-entries', requireAdmin, validate('query', RecentEntriesQuery), async (c) => c.json({ entries: await svc.recent(c.req.valid('query').limit) }))
    .get('/user/:id', validate('param', UserIdParam), async (c) => c.json({ revenue_history: await svc.history(c.get('actor'), c.req.valid('param').id) }))
    .get('/leaderboard', validate('query', LeaderboardQuery), async (c) => {
      const q = c.req.valid('query')
      return c.json(await svc.leaderboard(c.get('actor'), q.period, q.date))
    })
    .get('/me/trend', async (c) => c.json(await svc.myTrend(c.get('actor'))))
    .get('/leaderboard/me', validate('query', LeaderboardQuery), async (c) => {
      const q = c.req.valid('query')
      return c.json(await svc.myLeaderboard(c.get('actor'), q.period, q.date))
    })
