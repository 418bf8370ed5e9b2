import { Hono } from 'hono'
import { z } from 'zod'
import { AssignBody, AssignResponse, Exam, ExamInput, ExamSummary, IdParamOf, LearnerExam, MessageResponse, numericId } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { ExamService } from './exam.service.ts'

export const ExamIdParam = IdParamOf('exam')
const tags = ['Exams']

/** `/exams`: the caller's list, one exam, and authoring (admins). */
export const examRoutes = (svc: ExamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/', doc({ summary: 'The exams the caller may take (admins: all)', tags, roles: 'any signed-in user', responses: { 200: z.array(ExamSummary) } }), async (c) =>
      c.json(await svc.listForCaller(c.get('actor'))),
    )
    .post('/', doc({ summary: 'Creates an exam', tags, responses: { 201: Exam } }), requireAdmin, validate('json', ExamInput), async (c) =>
      c.json(await svc.create(c.req.valid('json')), 201),
    )
    .get(
      '/:id',
      doc({
        summary: 'An exam (admins: with its answers; learners: without)',
        tags,
        roles: 'admins, and learners it is assigned to',
        responses: { 200: z.union([Exam, LearnerExam]), 404: null },
      }),
      validate('param', ExamIdParam),
      async (c) => c.json(await svc.get(c.get('actor'), c.req.valid('param').id)),
    )
    .put(
      '/:id',
      doc({ summary: 'Edits an exam', tags, responses: { 200: Exam, 404: null, 409: null } }),
      requireAdmin,
      validate('param', ExamIdParam),
      validate('json', ExamInput),
      async (c) => c.json(await svc.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', doc({ summary: 'Deletes an exam', tags, responses: { 200: MessageResponse, 404: null } }), requireAdmin, validate('param', ExamIdParam), async (c) =>
      c.json(await svc.remove(c.req.valid('param').id)),
    )
    .post(
      '/:id/assign',
      doc({ summary: 'Assigns an exam to users', tags, responses: { 200: AssignResponse, 404: null } }),
      requireAdmin,
      validate('param', ExamIdParam),
      validate('json', AssignBody),
      async (c) => c.json(await svc.assign(c.req.valid('param').id, c.req.valid('json').userIds)),
    )

const QuestionParam = z.object({ id: numericId('exam'), questionId: numericId('question') })

/** `/admin/exams`: every exam with its pool and answers; a question retired from the pool or put back (issue 27). */
export const adminExamRoutes = (svc: ExamService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', doc({ summary: 'Every exam with its question pool and answers', tags, responses: { 200: z.array(Exam) } }), async (c) => c.json(await svc.listAdmin()))
    .post(
      '/:id/questions/:questionId/retire',
      doc({ summary: "Retires a question from an exam's pool", tags, responses: { 200: Exam, 404: null, 409: null } }),
      validate('param', QuestionParam),
      async (c) => {
        const { id, questionId } = c.req.valid('param')
        return c.json(await svc.retireQuestion(id, questionId))
      },
    )
    .post(
      '/:id/questions/:questionId/restore',
      doc({ summary: 'Puts a retired question back in the pool', tags, responses: { 200: Exam, 404: null } }),
      validate('param', QuestionParam),
      async (c) => {
        const { id, questionId } = c.req.valid('param')
        return c.json(await svc.restoreQuestion(id, questionId))
      },
    )
