import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { z } from 'zod'
import { Cmi5FetchResponse, Cmi5Launch, Cmi5LaunchBody, Cmi5Status, Cmi5WaiveBody, numericId } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type Logger, type TokenVerifier } from '@portal/server-kit'
import { FETCH_ERRORS, type Cmi5Service } from './cmi5.service.ts'

const ModuleIdParam = z.object({ moduleId: numericId('module') })
const tags = ['cmi5']
const StatusQuery = z.object({ user_id: z.uuid('user_id must be a user id').optional() })

/**
 * `/cmi5`: the launch of an AU, a learner's AU statuses and an admin's waiver (bearer), and the
 * one-time fetch URL of a launch (on the content origin; its token is its only credential).
 */
export const cmi5Routes = (svc: Cmi5Service, verifier: TokenVerifier, logger: Logger) => {
  const auth = authenticate(verifier)
  return (
    new Hono<AppEnv>()
      // AUs hosted elsewhere (an absolute url) call it from their own origin: open CORS, no cookies.
      .use('/fetch/*', cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], credentials: false }))
      // cmi5 §8.2.2: "The HTTP status code MUST be "200" for a valid request (including one that
      // generates error as described in section 8.2.3)": used twice, expired or unknown tokens
      // answer 200 with error-code 1 or 2; a failure of ours answers error-code 3 with 500.
      .post(
        '/fetch/:token',
        doc({
          summary: "The launch's fetch URL: the session's auth-token, once",
          description: 'Served on the content origin only (the gateway does not route it on the portal).',
          tags,
          roles: 'the AU holding the one-time fetch URL (its token is the credential)',
          responses: { 200: Cmi5FetchResponse, 500: { description: 'cmi5 error 3 (`error-code`, `error-text`)' } },
        }),
        async (c) => {
          try {
            return c.json(await svc.fetch(c.req.param('token')))
          } catch (err) {
            logger.error('cmi5 fetch failed', { err: err as Error })
            return c.json(FETCH_ERRORS.failed, 500)
          }
        },
      )
      .post(
        '/:moduleId/launch',
        doc({ summary: 'Launches an AU of a cmi5 module', tags, roles: 'a learner the course is assigned to', responses: { 200: Cmi5Launch, 404: null, 409: null } }),
        auth,
        validate('param', ModuleIdParam),
        validate('json', Cmi5LaunchBody),
        async (c) => c.json(await svc.launch(c.get('actor'), c.req.valid('param').moduleId, c.req.valid('json'))),
      )
      .get(
        '/:moduleId/status',
        doc({
          summary: "The AU statuses of a cmi5 module for the caller (or, for admins and managers, a learner's)",
          tags,
          roles: 'the learner themself, an admin, or a manager whose scope covers them',
          responses: { 200: Cmi5Status, 404: null },
        }),
        auth,
        validate('param', ModuleIdParam),
        validate('query', StatusQuery),
        async (c) => c.json(await svc.status(c.get('actor'), c.req.valid('param').moduleId, c.req.valid('query').user_id)),
      )
      .post(
        '/:moduleId/waive',
        doc({ summary: "Waives AUs of a learner's cmi5 module", tags, responses: { 200: Cmi5Status, 404: null, 409: null } }),
        auth,
        requireAdmin,
        validate('param', ModuleIdParam),
        validate('json', Cmi5WaiveBody),
        async (c) => c.json(await svc.waive(c.get('actor'), c.req.valid('param').moduleId, c.req.valid('json'))),
      )
  )
}
