import { Hono } from 'hono'
import { CreateUserGroupBody, UserGroup, UserGroupsResponse } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { GroupService } from './group.service.ts'

export const groupRoutes = (svc: GroupService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', doc({ summary: 'The user groups', tags: ['User groups'], responses: { 200: UserGroupsResponse } }), async (c) => c.json(await svc.list()))
    .post('/', doc({ summary: 'Adds a user group', tags: ['User groups'], responses: { 201: UserGroup, 409: null } }), validate('json', CreateUserGroupBody), async (c) =>
      c.json(await svc.create(c.req.valid('json').groupName), 201),
    )
