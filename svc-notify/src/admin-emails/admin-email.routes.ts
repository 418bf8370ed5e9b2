import { Hono } from 'hono'
import { z } from 'zod'
import { AdminEmailInput } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { AdminEmailService } from './admin-email.service.ts'

/** A numeric id in a path: anything else is not a route (404), never a 500. */
export const IdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) })

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
