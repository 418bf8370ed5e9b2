import { Hono } from 'hono'
import { LrsForwardingInput } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { XapiOutService } from './xapi-out.service.ts'

/** `/admin/lrs-forwarding`: the external LRS statements go to (admins only). */
export const lrsForwardingRoutes = (svc: XapiOutService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', async (c) => c.json(await svc.get()))
    .put('/', validate('json', LrsForwardingInput), async (c) => c.json(await svc.save(c.req.valid('json'))))
    .post('/test', async (c) => c.json(await svc.test()))
