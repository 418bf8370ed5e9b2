import { Hono } from 'hono'
import { MessageResponse, SIGN_IN_PROVIDER_KEY, SignInProvider, SignInProviderInput, SignInProvidersResponse, SignInProviderUpdate } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { z } from 'zod'
import type { ProviderService } from './provider.service.ts'

const KeyParam = z.object({ key: z.string().regex(SIGN_IN_PROVIDER_KEY, 'Invalid provider key') })

const tags = ['Company sign-in']

/** `/admin/sign-in/providers`: the admin console's Sign-in section (admins only). */
export const providerRoutes = (svc: ProviderService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', doc({ summary: 'The company sign-in providers (from the environment and the console)', tags, responses: { 200: SignInProvidersResponse } }), async (c) =>
      c.json(await svc.list()),
    )
    .post('/', doc({ summary: 'Adds a company sign-in provider', tags, responses: { 201: SignInProvider, 409: null } }), validate('json', SignInProviderInput), async (c) =>
      c.json(await svc.create(c.get('actor'), c.req.valid('json')), 201),
    )
    .put(
      '/:key',
      doc({ summary: 'Edits a company sign-in provider', tags, responses: { 200: SignInProvider, 404: null, 409: null } }),
      validate('param', KeyParam),
      validate('json', SignInProviderUpdate),
      async (c) => c.json(await svc.update(c.get('actor'), c.req.valid('param').key, c.req.valid('json'))),
    )
    .delete(
      '/:key',
      doc({ summary: 'Removes a company sign-in provider', tags, responses: { 200: MessageResponse, 404: null, 409: null } }),
      validate('param', KeyParam),
      async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').key)),
    )
