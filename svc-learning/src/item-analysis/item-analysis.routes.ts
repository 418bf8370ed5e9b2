import { Hono } from 'hono'
import { IdParamOf, ItemAnalysisQuery } from '@portal/contracts'
import { XLSX_TYPE, authenticate, contentDisposition, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { ItemAnalysisService } from './item-analysis.service.ts'

const ExamIdParam = IdParamOf('exam')

/** `/admin/exams/{id}/item-analysis` and its .xlsx export (admins only). */
export const itemAnalysisRoutes = (svc: ItemAnalysisService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/:id/item-analysis', validate('param', ExamIdParam), validate('query', ItemAnalysisQuery), async (c) =>
      c.json(await svc.analyse(c.req.valid('param').id, c.req.valid('query'))),
    )
    .get('/:id/item-analysis/export', validate('param', ExamIdParam), validate('query', ItemAnalysisQuery), async (c) => {
      const file = await svc.exportWorkbook(c.req.valid('param').id, c.req.valid('query'))
      return new Response(file.body, {
        headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' },
      })
    })
