import { Hono } from 'hono'
import { PauseNotificationsBody, ResumeNotificationsBody } from '@portal/contracts'
import { authenticate, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { UserIdParam } from '../shared/index.ts'
import type { TechnicianService } from './technician.service.ts'

/** `/technician`: profile, dashboard summary and the notification pause. */
export const technicianRoutes = (svc: TechnicianService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/profile/:userId', validate('param', UserIdParam), async (c) => c.json(await svc.profile(c.get('actor'), c.req.valid('param').userId)))
    .get('/summary/:userId', validate('param', UserIdParam), async (c) => c.json(await svc.summary(c.get('actor'), c.req.valid('param').userId)))
    .post('/pause-notifications', validate('json', PauseNotificationsBody), async (c) => {
      const body = c.req.valid('json')
      return c.json(await svc.pause(c.get('actor'), body.userId, body.pauseUntil))
    })
    .post('/resume-notifications', validate('json', ResumeNotificationsBody), async (c) => c.json(await svc.resume(c.get('actor'), c.req.valid('json').userId)))
