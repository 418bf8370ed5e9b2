import { Hono } from 'hono'
import { LrsForwarding, LrsForwardingInput, LrsTestResult } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { XapiOutService } from './xapi-out.service.ts'

const tags = ['Statements out']

/** `/admin/lrs-forwarding`: the external LRS statements go to (admins only). */
export const lrsForwardingRoutes = (svc: XapiOutService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', doc({ summary: 'Where statements are forwarded (the external LRS; its secret is never shown)', tags, responses: { 200: LrsForwarding } }), async (c) =>
      c.json(await svc.get()),
    )
    .put('/', doc({ summary: 'Sets the external LRS statements go to', tags, responses: { 200: LrsForwarding } }), validate('json', LrsForwardingInput), async (c) =>
      c.json(await svc.save(c.req.valid('json'))),
    )
    .post('/test', doc({ summary: 'Tries the connection to the external LRS', tags, responses: { 200: LrsTestResult } }), async (c) => c.json(await svc.test()))
