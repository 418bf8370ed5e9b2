import { Hono } from 'hono'
import { z } from 'zod'
import { UpdateEmploymentBody, UpdateProfileBody, UpdateRolesBody, UpdateUserGroupBody } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { UserService } from './user.service.ts'

const IdParam = z.object({ id: z.uuid('Invalid id') })

// The contract's "required" refinements do not run on absent keys (zod skips optional fields),
// so absent branch/department are read as null and meet the same messages.
const isObject = (b: unknown): b is object => typeof b === 'object' && b !== null && !Array.isArray(b)
const ProfileBody = z.preprocess((b) => (isObject(b) ? { branch: null, department: null, ...b } : b), UpdateProfileBody)

export const userRoutes = (svc: UserService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/me', async (c) => c.json({ user: await svc.me(c.get('actor')) }))
    .get('/', requireAdmin, async (c) => c.json(await svc.list()))
    .put('/:id/profile', validate('param', IdParam), validate('json', ProfileBody), async (c) => {
      const body = c.req.valid('json')
      return c.json({ user: await svc.updateProfile(c.get('actor'), c.req.valid('param').id, body) })
    })
    .put('/:id/employment', requireAdmin, validate('param', IdParam), validate('json', UpdateEmploymentBody), async (c) =>
      c.json({ user: await svc.setEmployment(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .patch('/:id/group', requireAdmin, validate('param', IdParam), validate('json', UpdateUserGroupBody), async (c) =>
      c.json({ user: await svc.setGroup(c.get('actor'), c.req.valid('param').id, c.req.valid('json').userGroup) }),
    )
    .put('/:id/roles', requireAdmin, validate('param', IdParam), validate('json', UpdateRolesBody), async (c) =>
      c.json({ user: await svc.setRoles(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete('/:id', requireAdmin, validate('param', IdParam), async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)))
