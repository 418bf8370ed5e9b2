import { Hono } from 'hono'
import { z } from 'zod'
import { UserStats } from '@portal/contracts'
import { authenticate, doc, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { StatsService } from './stats.service.ts'

const UserIdParam = z.object({ id: z.uuid('Invalid user id') })

/** `/users/{id}/stats` (the gateway sends this one path of `/users` here). */
export const statsRoutes = (svc: StatsService, verifier: TokenVerifier) =>
  new Hono<AppEnv>().use(authenticate(verifier)).get(
    '/:id/stats',
    doc({
      summary: "A user's learning figures",
      tags: ['Stats'],
      roles: 'the user themself, an admin, or a manager whose scope covers them',
      responses: { 200: UserStats, 404: null },
    }),
    validate('param', UserIdParam),
    async (c) => c.json(await svc.forUser(c.get('actor'), c.req.valid('param').id)),
  )
