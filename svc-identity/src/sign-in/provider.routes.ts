import { Hono } from 'hono'
import { SIGN_IN_PROVIDER_KEY, SignInProviderInput, SignInProviderUpdate } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { z } from 'zod'
import type { ProviderService } from './provider.service.ts'

const KeyParam = z.object({ key: z.string().regex(SIGN_IN_PROVIDER_KEY, 'Invalid provider key') })

/** `/admin/sign-in/providers`: the admin console's Sign-in section (admins only). */
export const providerRoutes = (svc: ProviderService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', async (c) => c.json(await svc.list()))
    .post('/', validate('json', SignInProviderInput), async (c) => c.json(await svc.create(c.get('actor'), c.req.valid('json')), 201))
    .put('/:key', validate('param', KeyParam), validate('json', SignInProviderUpdate), async (c) =>
      c.json(await svc.update(c.get('actor'), c.req.valid('param').key, c.req.valid('json'))),
    )
    .delete('/:key', validate('param', KeyParam), async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').key)))
