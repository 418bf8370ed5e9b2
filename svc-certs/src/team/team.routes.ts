import { Hono } from 'hono'
import {
  PromotionDecisionBody,
  PromotionRequestResponse,
  PromotionRequestsQuery,
  PromotionRequestsResponse,
  RevPayBody,
  RevPayResponse,
  SendReminderResponse,
  TEAM_MESSAGES,
  TeamExportQuery,
  TeamMemberDetail,
  TeamQuery,
  TeamResponse,
  TierPromotionBody,
} from '@portal/contracts'
import { authenticate, contentDisposition, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { PromotionService } from '../promotions/index.ts'
import { IdParam, UserIdParam } from '../shared/index.ts'
import type { TeamService } from './team.service.ts'
import { XLSX_TYPE, type WorkbookDownload } from '@portal/server-kit'

const tags = ['Team']
const roles = 'managers for the members of their scope, and admins'
const workbook = { media: XLSX_TYPE, description: 'An Excel workbook (attachment)' }

const download = (file: WorkbookDownload) =>
  new Response(file.body, { headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' } })

/** `/manager`: the team dashboard, member detail, rev/pay, promotions and the Quick Actions (managers for their scope, admins). */
export const managerRoutes = (team: TeamService, promotions: PromotionService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/team', doc({ summary: 'The team dashboard: members, progress and summary', tags, roles, responses: { 200: TeamResponse } }), validate('query', TeamQuery), async (c) =>
      c.json(await team.team(c.get('actor'), c.req.valid('query'))),
    )
    .get('/team/:userId', doc({ summary: "A team member's detail", tags, roles, responses: { 200: TeamMemberDetail, 404: null } }), validate('param', UserIdParam), async (c) =>
      c.json(await team.detail(c.get('actor'), c.req.valid('param').userId)),
    )
    .post(
      '/team/:userId/reminder',
      doc({ summary: 'Reminds a team member of their open requirements', tags, roles, responses: { 202: SendReminderResponse, 404: null } }),
      validate('param', UserIdParam),
      async (c) => c.json(await team.remind(c.get('actor'), c.req.valid('param').userId), 202),
    )
    .get(
      '/team/:userId/report',
      doc({ summary: "A team member's report as a workbook", tags, roles, responses: { 200: workbook, 404: null } }),
      validate('param', UserIdParam),
      async (c) => download(await team.report(c.get('actor'), c.req.valid('param').userId)),
    )
    .put(
      '/rev-pay/:userId',
      doc({ summary: "Sets a team member's rev/pay ratio", tags, roles, responses: { 200: RevPayResponse, 404: null } }),
      validate('param', UserIdParam),
      validate('json', RevPayBody),
      async (c) => c.json(await team.setRevPay(c.get('actor'), c.req.valid('param').userId, c.req.valid('json').revPayRatio)),
    )
    .post(
      '/tier-promotion',
      doc({ summary: 'Asks for a team member to be promoted a tier', tags, roles, responses: { 201: PromotionRequestResponse, 404: null, 409: null } }),
      validate('json', TierPromotionBody),
      async (c) => c.json({ message: TEAM_MESSAGES.promotionSubmitted, request: await promotions.request(c.get('actor'), c.req.valid('json')) }, 201),
    )
    .get(
      '/tier-promotions',
      doc({ summary: 'Tier promotion requests', tags, roles: 'admins (all) and managers (their own requests)', responses: { 200: PromotionRequestsResponse } }),
      validate('query', PromotionRequestsQuery),
      async (c) => c.json({ requests: await promotions.list(c.get('actor'), c.req.valid('query').status) }),
    )
    .post(
      '/tier-promotions/:id{[0-9]+}/decision',
      doc({ summary: 'Approves or denies a tier promotion', tags, responses: { 200: PromotionRequestResponse, 404: null, 409: null } }),
      requireAdmin,
      validate('param', IdParam),
      validate('json', PromotionDecisionBody),
      async (c) => {
        const body = c.req.valid('json')
        const request = await promotions.decide(c.get('actor'), c.req.valid('param').id, body)
        return c.json({ message: body.approve ? TEAM_MESSAGES.promotionApproved : TEAM_MESSAGES.promotionDenied, request })
      },
    )

/** `/reports`: the team's certifications as an .xlsx (managers for their scope, admins). */
export const reportRoutes = (team: TeamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get(
      '/certifications/export',
      doc({ summary: "The team's certifications as a workbook", tags, roles, responses: { 200: workbook } }),
      validate('query', TeamExportQuery),
      async (c) => download(await team.exportTeam(c.get('actor'), c.req.valid('query'))),
    )
