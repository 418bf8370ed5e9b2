import { Hono } from 'hono'
import { z } from 'zod'
import { ExamSubmissionResult, SaveAnswersBody, SaveAnswersResponse, StartAttemptResponse, SubmitExamBody } from '@portal/contracts'
import { authenticate, doc, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { ExamIdParam } from '../exam.routes.ts'
import type { AttemptService } from './attempt.service.ts'

const AttemptIdParam = z.object({ attemptId: z.uuid('Invalid attempt id') })

const tags = ['Exam attempts']
const roles = 'a learner the exam is assigned to (their own attempt)'

/** Attempts held by the server, mounted under `/exams`. */
export const attemptRoutes = (svc: AttemptService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post(
      '/:id/attempts',
      doc({
        summary: 'Starts an attempt, or resumes the one in progress (200)',
        tags,
        roles,
        responses: { 200: StartAttemptResponse, 201: StartAttemptResponse, 404: null, 409: null },
      }),
      validate('param', ExamIdParam),
      async (c) => {
        const { resumed, attempt } = await svc.start(c.get('actor'), c.req.valid('param').id)
        return c.json(attempt, resumed ? 200 : 201)
      },
    )
    .put(
      '/attempts/:attemptId/answers',
      doc({ summary: "Saves an attempt's answers so far", tags, roles, responses: { 200: SaveAnswersResponse, 404: null, 409: null } }),
      validate('param', AttemptIdParam),
      validate('json', SaveAnswersBody),
      async (c) => c.json(await svc.saveAnswers(c.get('actor'), c.req.valid('param').attemptId, c.req.valid('json'))),
    )
    .post(
      '/:id/submit',
      doc({ summary: 'Submits an attempt and grades it', tags, roles, responses: { 200: ExamSubmissionResult, 404: null, 409: null } }),
      validate('param', ExamIdParam),
      validate('json', SubmitExamBody),
      async (c) => c.json(await svc.submit(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
