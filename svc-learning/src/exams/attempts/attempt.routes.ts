import { Hono } from 'hono'
import { z } from 'zod'
import { SaveAnswersBody, SubmitExamBody } from '@portal/contracts'
import { authenticate, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { ExamIdParam } from '../exam.routes.ts'
import type { AttemptService } from './attempt.service.ts'

const AttemptIdParam = z.object({ attemptId: z.uuid('Invalid attempt id') })

/** Attempts held by the server, mounted under `/exams`. */
export const attemptRoutes = (svc: AttemptService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post('/:id/attempts', validate('param', ExamIdParam), async (c) => {
      const { resumed, attempt } = await svc.start(c.get('actor'), c.req.valid('param').id)
      return c.json(attempt, resumed ? 200 : 201)
    })
    .put('/attempts/:attemptId/answers', validate('param', AttemptIdParam), validate('json', SaveAnswersBody), async (c) =>
      c.json(await svc.saveAnswers(c.get('actor'), c.req.valid('param').attemptId, c.req.valid('json'))),
    )
    .post('/:id/submit', validate('param', ExamIdParam), validate('json', SubmitExamBody), async (c) =>
      c.json(await svc.submit(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
