import { Hono } from 'hono'
import { CreateUserGroupBody } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { GroupService } from './group.service.ts'

export const groupRoutes = (svc: GroupService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', async (c) => c.json(await svc.list()))
    .post('/', validate('json', CreateUserGroupBody), async (c) => c.json(await svc.create(c.req.valid('json').groupName), 201))
