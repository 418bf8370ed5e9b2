import { Hono } from 'hono'
import { IdParamOf, ItemAnalysis, ItemAnalysisQuery } from '@portal/contracts'
import { XLSX_TYPE, authenticate, contentDisposition, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { ItemAnalysisService } from './item-analysis.service.ts'

const ExamIdParam = IdParamOf('exam')

/** `/admin/exams/{id}/item-analysis` and its .xlsx export (admins only). */
export const itemAnalysisRoutes = (svc: ItemAnalysisService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get(
      '/:id/item-analysis',
      doc({ summary: "An exam's item analysis: difficulty and discrimination of each question", tags: ['Exams'], responses: { 200: ItemAnalysis, 404: null } }),
      validate('param', ExamIdParam),
      validate('query', ItemAnalysisQuery),
      async (c) => c.json(await svc.analyse(c.req.valid('param').id, c.req.valid('query'))),
    )
    .get(
      '/:id/item-analysis/export',
      doc({
        summary: "An exam's item analysis as a workbook",
        tags: ['Exams'],
        responses: { 200: { media: XLSX_TYPE, description: 'An Excel workbook (attachment)' }, 404: null },
      }),
      validate('param', ExamIdParam),
      validate('query', ItemAnalysisQuery),
      async (c) => {
        const file = await svc.exportWorkbook(c.req.valid('param').id, c.req.valid('query'))
        return new Response(file.body, {
          headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': contentDisposition('attachment', file.filename), 'Cache-Control': 'no-store' },
        })
      },
    )
