import { Hono } from 'hono'
import {
  AssignmentPreview,
  AssignmentPreviewInput,
  AssignmentReport,
  AssignmentRule,
  AssignmentRuleDeleted,
  AssignmentRuleList,
  AssignmentRuleSaved,
  ExemptionResult,
  MyAssignments,
  AssignmentReportQuery,
  AssignmentRuleIdParam,
  AssignmentRuleInput,
  AssignmentRuleListQuery,
  ExemptionInput,
  ExemptionParams,
} from '@portal/contracts'
import { XLSX_TYPE, authenticate, contentDisposition, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { AssignmentService } from './assignment.service.ts'

const tags = ['Assignments']

/** `/admin/assignment-rules`: the rules, their dry run, reports and exemptions (admins only). */
export const adminAssignmentRuleRoutes = (svc: AssignmentService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', doc({ summary: 'The assignment rules', tags, responses: { 200: AssignmentRuleList } }), validate('query', AssignmentRuleListQuery), async (c) =>
      c.json(await svc.list(c.req.valid('query'))),
    )
    .post(
      '/',
      doc({ summary: 'Creates an assignment rule (and assigns its audience)', tags, responses: { 201: AssignmentRuleSaved, 404: null, 409: null } }),
      validate('json', AssignmentRuleInput),
      async (c) => c.json(await svc.create(c.get('actor'), c.req.valid('json')), 201),
    )
    .post(
      '/preview',
      doc({ summary: 'Who a rule would assign (a dry run)', tags, responses: { 200: AssignmentPreview, 404: null } }),
      validate('json', AssignmentPreviewInput),
      async (c) => c.json(await svc.preview(c.req.valid('json'))),
    )
    .get('/:id', doc({ summary: 'An assignment rule with its counts', tags, responses: { 200: AssignmentRule, 404: null } }), validate('param', AssignmentRuleIdParam), async (c) =>
      c.json(await svc.get(c.req.valid('param').id)),
    )
    .put(
      '/:id',
      doc({ summary: 'Edits an assignment rule', tags, responses: { 200: AssignmentRuleSaved, 404: null, 409: null } }),
      validate('param', AssignmentRuleIdParam),
      validate('json', AssignmentRuleInput),
      async (c) => c.json(await svc.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete(
      '/:id',
      doc({ summary: 'Deletes an assignment rule (its open assignments go)', tags, responses: { 200: AssignmentRuleDeleted, 404: null } }),
      validate('param', AssignmentRuleIdParam),
      async (c) => c.json(await svc.remove(c.req.valid('param').id)),
    )
    .get(
      '/:id/report',
      doc({ summary: "A rule's report: each assignee's state", tags, responses: { 200: AssignmentReport, 404: null } }),
      validate('param', AssignmentRuleIdParam),
      validate('query', AssignmentReportQuery),
      async (c) => c.json(await svc.report(c.req.valid('param').id, c.req.valid('query'))),
    )
    .get(
      '/:id/report/export',
      doc({ summary: "A rule's report as a workbook", tags, responses: { 200: { media: XLSX_TYPE, description: 'An Excel workbook (attachment)' }, 404: null } }),
      validate('param', AssignmentRuleIdParam),
      validate('query', AssignmentReportQuery),
      async (c) => {
        const file = await svc.exportWorkbook(c.req.valid('param').id, c.req.valid('query'))
        return new Response(file.body, {
          headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' },
        })
      },
    )
    .post(
      '/:id/exemptions',
      doc({ summary: 'Exempts a learner from a rule', tags, responses: { 200: ExemptionResult, 404: null } }),
      validate('param', AssignmentRuleIdParam),
      validate('json', ExemptionInput),
      async (c) => c.json(await svc.exempt(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete(
      '/:id/exemptions/:userId',
      doc({ summary: "Lifts a learner's exemption", tags, responses: { 200: ExemptionResult, 404: null } }),
      validate('param', ExemptionParams),
      async (c) => {
        const { id, userId } = c.req.valid('param')
        return c.json(await svc.liftExemption(c.get('actor'), id, userId))
      },
    )

/** `/assignments/mine`: the caller's own assignments (any signed-in user). */
export const myAssignmentRoutes = (svc: AssignmentService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/mine', doc({ summary: "The caller's own assignments", tags, roles: 'any signed-in user', responses: { 200: MyAssignments } }), async (c) =>
      c.json(await svc.mine(c.get('actor'))),
    )
