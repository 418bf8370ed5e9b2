import { Hono } from 'hono'
import { AdminEmailInput } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { AdminEmailService } from './admin-email.service.ts'

/** `/admin/emails` (admin §7): global admin e-mails, admins only. */
export const adminEmailRoutes = (svc: AdminEmailService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', async (c) => c.json(await svc.list()))
    .post('/', validate('json', AdminEmailInput), async (c) => c.json(await svc.add(c.get('actor'), c.req.valid('json')), 201))
    .put('/:id{[0-9]+}', validate('param', IdParam), validate('json', AdminEmailInput), async (c) =>
      c.json(await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .patch('/:id{[0-9]+}/toggle', validate('param', IdParam), async (c) => c.json(await svc.toggle(c.get('actor'), c.req.valid('param').id)))
    .delete('/:id{[0-9]+}', validate('param', IdParam), async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)))
