import { Hono } from 'hono'
import {
  AssignmentPreviewInput,
  AssignmentReportQuery,
  AssignmentRuleIdParam,
  AssignmentRuleInput,
  AssignmentRuleListQuery,
  ExemptionInput,
  ExemptionParams,
} from '@portal/contracts'
import { XLSX_TYPE, authenticate, contentDisposition, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { AssignmentService } from './assignment.service.ts'

/** `/admin/assignment-rules`: the rules, their dry run, reports and exemptions (admins only). */
export const adminAssignmentRuleRoutes = (svc: AssignmentService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', validate('query', AssignmentRuleListQuery), async (c) => c.json(await svc.list(c.req.valid('query'))))
    .post('/', validate('json', AssignmentRuleInput), async (c) => c.json(await svc.create(c.get('actor'), c.req.valid('json')), 201))
    .post('/preview', validate('json', AssignmentPreviewInput), async (c) => c.json(await svc.preview(c.req.valid('json'))))
    .get('/:id', validate('param', AssignmentRuleIdParam), async (c) => c.json(await svc.get(c.req.valid('param').id)))
    .put('/:id', validate('param', AssignmentRuleIdParam), validate('json', AssignmentRuleInput), async (c) =>
      c.json(await svc.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', validate('param', AssignmentRuleIdParam), async (c) => c.json(await svc.remove(c.req.valid('param').id)))
    .get('/:id/report', validate('param', AssignmentRuleIdParam), validate('query', AssignmentReportQuery), async (c) =>
      c.json(await svc.report(c.req.valid('param').id, c.req.valid('query'))),
    )
    .get('/:id/report/export', validate('param', AssignmentRuleIdParam), validate('query', AssignmentReportQuery), async (c) => {
      const file = await svc.exportWorkbook(c.req.valid('param').id, c.req.valid('query'))
      return new Response(file.body, {
        headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' },
      })
    })
    .post('/:id/exemptions', validate('param', AssignmentRuleIdParam), validate('json', ExemptionInput), async (c) =>
      c.json(await svc.exempt(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id/exemptions/:userId', validate('param', ExemptionParams), async (c) => {
      const { id, userId } = c.req.valid('param')
      return c.json(await svc.liftExemption(c.get('actor'), id, userId))
    })

/** `/assignments/mine`: the caller's own assignments (any signed-in user). */
export const myAssignmentRoutes = (svc: AssignmentService, verifier: TokenVerifier) =>
  new Hono<AppEnv>().use(authenticate(verifier)).get('/mine', async (c) => c.json(await svc.mine(c.get('actor'))))
