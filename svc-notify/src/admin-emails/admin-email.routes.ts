import { Hono } from 'hono'
import { AdminEmail, AdminEmailInput, AdminEmailsResponse, MessageResponse } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { AdminEmailService } from './admin-email.service.ts'

const tags = ['Admin e-mails']

/** `/admin/emails` (admin §7): global admin e-mails, admins only. */
export const adminEmailRoutes = (svc: AdminEmailService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', doc({ summary: 'The global admin e-mail addresses', tags, responses: { 200: AdminEmailsResponse } }), async (c) => c.json(await svc.list()))
    .post(
      '/',
      doc({ summary: 'Adds an admin e-mail address', tags, responses: { 201: AdminEmail, 409: { description: 'The address is already listed (`admin_email_taken`)' } } }),
      validate('json', AdminEmailInput),
      async (c) => c.json(await svc.add(c.get('actor'), c.req.valid('json')), 201),
    )
    .put(
      '/:id{[0-9]+}',
      doc({ summary: 'Edits an admin e-mail address', tags, responses: { 200: AdminEmail, 404: null, 409: { description: 'Another row has the address (`admin_email_taken`)' } } }),
      validate('param', IdParam),
      validate('json', AdminEmailInput),
      async (c) => c.json(await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .patch(
      '/:id{[0-9]+}/toggle',
      doc({ summary: 'Turns an admin e-mail address on or off', tags, responses: { 200: AdminEmail, 404: null } }),
      validate('param', IdParam),
      async (c) => c.json(await svc.toggle(c.get('actor'), c.req.valid('param').id)),
    )
    .delete('/:id{[0-9]+}', doc({ summary: 'Removes an admin e-mail address', tags, responses: { 200: MessageResponse, 404: null } }), validate('param', IdParam), async (c) =>
      c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)),
    )
