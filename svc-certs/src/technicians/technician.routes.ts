import { Hono } from 'hono'
import { CertificationSummary, NotificationsStateResponse, PauseNotificationsBody, ResumeNotificationsBody, TechnicianProfile } from '@portal/contracts'
import { authenticate, doc, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { UserIdParam } from '../shared/index.ts'
import type { TechnicianService } from './technician.service.ts'

const tags = ['Technicians']
const roles = 'the technician themself, an admin, or a manager whose scope covers them'

/** `/technician`: profile, dashboard summary and the notification pause. */
export const technicianRoutes = (svc: TechnicianService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get(
      '/profile/:userId',
      doc({ summary: "A technician's profile: tier, progress and revenue", tags, roles, responses: { 200: TechnicianProfile, 404: null } }),
      validate('param', UserIdParam),
      async (c) => c.json(await svc.profile(c.get('actor'), c.req.valid('param').userId)),
    )
    .get(
      '/summary/:userId',
      doc({ summary: "A technician's certification summary", tags, roles, responses: { 200: CertificationSummary, 404: null } }),
      validate('param', UserIdParam),
      async (c) => c.json(await svc.summary(c.get('actor'), c.req.valid('param').userId)),
    )
    .post(
      '/pause-notifications',
      doc({ summary: "Pauses a technician's expiry notifications", tags, roles: 'the technician themself or an admin', responses: { 200: NotificationsStateResponse, 404: null } }),
      validate('json', PauseNotificationsBody),
      async (c) => {
        const body = c.req.valid('json')
        return c.json(await svc.pause(c.get('actor'), body.userId, body.pauseUntil))
      },
    )
    .post(
      '/resume-notifications',
      doc({
        summary: "Resumes a technician's expiry notifications",
        tags,
        roles: 'the technician themself or an admin',
        responses: { 200: NotificationsStateResponse, 404: null },
      }),
      validate('json', ResumeNotificationsBody),
      async (c) => c.json(await svc.resume(c.get('actor'), c.req.valid('json').userId)),
    )
