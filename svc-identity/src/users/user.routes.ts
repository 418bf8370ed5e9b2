import { Hono } from 'hono'
import { z } from 'zod'
import { MessageResponse, ProfileResponse, UpdateEmploymentBody, UpdateProfileBody, UpdateRolesBody, UpdateUserGroupBody, UsersResponse } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { UserService } from './user.service.ts'

const IdParam = z.object({ id: z.uuid('Invalid id') })

// The contract's "required" refinements do not run on absent keys (zod skips optional fields),
// so absent branch/department are read as null and meet the same messages.
const isObject = (b: unknown): b is object => typeof b === 'object' && b !== null && !Array.isArray(b)
const ProfileBody = z.preprocess((b) => (isObject(b) ? { branch: null, department: null, ...b } : b), UpdateProfileBody)

const tags = ['Users']

export const userRoutes = (svc: UserService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/me', doc({ summary: 'The signed-in user', tags, roles: 'any signed-in user', responses: { 200: ProfileResponse } }), async (c) =>
      c.json({ user: await svc.me(c.get('actor')) }),
    )
    .get('/', doc({ summary: 'All users', tags, responses: { 200: UsersResponse } }), requireAdmin, async (c) => c.json(await svc.list()))
    .put(
      '/:id/profile',
      doc({ summary: "Sets a user's branch and department", tags, roles: 'the user themself or an admin', responses: { 200: ProfileResponse, 404: null } }),
      validate('param', IdParam),
      validate('json', ProfileBody),
      async (c) => {
        const body = c.req.valid('json')
        return c.json({ user: await svc.updateProfile(c.get('actor'), c.req.valid('param').id, body) })
      },
    )
    .put(
      '/:id/employment',
      doc({ summary: "Sets a user's employment facts", tags, responses: { 200: ProfileResponse, 404: null } }),
      requireAdmin,
      validate('param', IdParam),
      validate('json', UpdateEmploymentBody),
      async (c) => c.json({ user: await svc.setEmployment(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .patch(
      '/:id/group',
      doc({ summary: "Sets a user's group", tags, responses: { 200: ProfileResponse, 404: null } }),
      requireAdmin,
      validate('param', IdParam),
      validate('json', UpdateUserGroupBody),
      async (c) => c.json({ user: await svc.setGroup(c.get('actor'), c.req.valid('param').id, c.req.valid('json').userGroup) }),
    )
    .put(
      '/:id/roles',
      doc({ summary: "Sets a user's admin and manager roles and manager scope", tags, responses: { 200: ProfileResponse, 404: null } }),
      requireAdmin,
      validate('param', IdParam),
      validate('json', UpdateRolesBody),
      async (c) => c.json({ user: await svc.setRoles(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete(
      '/:id',
      doc({ summary: 'Deletes a user', tags, responses: { 200: MessageResponse, 400: { description: 'Not your own account (`cannot_delete_self`)' }, 404: null } }),
      requireAdmin,
      validate('param', IdParam),
      async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)),
    )
