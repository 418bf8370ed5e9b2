import { Hono } from 'hono'
import { z } from 'zod'
import { AssignBody, ExamInput, IdParamOf, numericId } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { ExamService } from './exam.service.ts'

export const ExamIdParam = IdParamOf('exam')

/** `/exams`: the caller's list, one exam, and authoring (admins). */
export const examRoutes = (svc: ExamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/', async (c) => c.json(await svc.listForCaller(c.get('actor'))))
    .post('/', requireAdmin, validate('json', ExamInput), async (c) => c.json(await svc.create(c.req.valid('json')), 201))
    .get('/:id', validate('param', ExamIdParam), async (c) => c.json(await svc.get(c.get('actor'), c.req.valid('param').id)))
    .put('/:id', requireAdmin, validate('param', ExamIdParam), validate('json', ExamInput), async (c) => c.json(await svc.update(c.req.valid('param').id, c.req.valid('json'))))
    .delete('/:id', requireAdmin, validate('param', ExamIdParam), async (c) => c.json(await svc.remove(c.req.valid('param').id)))
    .post('/:id/assign', requireAdmin, validate('param', ExamIdParam), validate('json', AssignBody), async (c) =>
      c.json(await svc.assign(c.req.valid('param').id, c.req.valid('json').userIds)),
    )

const QuestionParam = z.object({ id: numericId('exam'), questionId: numericId('question') })

/** `/admin/exams`: every exam with its pool and answers; a question retired from the pool or put back (issue 27). */
export const adminExamRoutes = (svc: ExamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', async (c) => c.json(await svc.listAdmin()))
    .post('/:id/questions/:questionId/retire', validate('param', QuestionParam), async (c) => {
      const { id, questionId } = c.req.valid('param')
      return c.json(await svc.retireQuestion(id, questionId))
    })
    .post('/:id/questions/:questionId/restore', validate('param', QuestionParam), async (c) => {
      const { id, questionId } = c.req.valid('param')
      return c.json(await svc.restoreQuestion(id, questionId))
    })
