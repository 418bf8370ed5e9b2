import { Hono } from 'hono'
import { PromotionDecisionBody, PromotionRequestsQuery, RevPayBody, TEAM_MESSAGES, TeamExportQuery, TeamQuery, TierPromotionBody } from '@portal/contracts'
import { authenticate, contentDisposition, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { PromotionService } from '../promotions/index.ts'
import { IdParam, UserIdParam } from '../shared/index.ts'
import type { TeamService } from './team.service.ts'
import { XLSX_TYPE, type WorkbookDownload } from '@portal/server-kit'

const download = (file: WorkbookDownload) =>
  new Response(file.body, { headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' } })

/** `/manager`: the team dashboard, member detail, rev/pay, promotions and the Quick Actions (managers for their scope, admins). */
export const managerRoutes = (team: TeamService, promotions: PromotionService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/team', validate('query', TeamQuery), async (c) => c.json(await team.team(c.get('actor'), c.req.valid('query'))))
    .get('/team/:userId', validate('param', UserIdParam), async (c) => c.json(await team.detail(c.get('actor'), c.req.valid('param').userId)))
    .post('/team/:userId/reminder', validate('param', UserIdParam), async (c) => c.json(await team.remind(c.get('actor'), c.req.valid('param').userId), 202))
    .get('/team/:userId/report', validate('param', UserIdParam), async (c) => download(await team.report(c.get('actor'), c.req.valid('param').userId)))
    .put('/rev-pay/:userId', validate('param', UserIdParam), validate('json', RevPayBody), async (c) =>
      c.json(await team.setRevPay(c.get('actor'), c.req.valid('param').userId, c.req.valid('json').revPayRatio)),
    )
    .post('/tier-promotion', validate('json', TierPromotionBody), async (c) =>
      c.json({ message: TEAM_MESSAGES.promotionSubmitted, request: await promotions.request(c.get('actor'), c.req.valid('json')) }, 201),
    )
    .get('/tier-promotions', validate('query', PromotionRequestsQuery), async (c) => c.json({ requests: await promotions.list(c.get('actor'), c.req.valid('query').status) }))
    .post('/tier-promotions/:id{[0-9]+}/decision', requireAdmin, validate('param', IdParam), validate('json', PromotionDecisionBody), async (c) => {
      const body = c.req.valid('json')
      const request = await promotions.decide(c.get('actor'), c.req.valid('param').id, body)
      return c.json({ message: body.approve ? TEAM_MESSAGES.promotionApproved : TEAM_MESSAGES.promotionDenied, request })
    })

/** `/reports`: the team's certifications as an .xlsx (managers for their scope, admins). */
export const reportRoutes = (team: TeamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/certifications/export', validate('query', TeamExportQuery), async (c) => download(await team.exportTeam(c.get('actor'), c.req.valid('query'))))
