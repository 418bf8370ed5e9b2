import { Hono } from 'hono'
import { AssignCourseBody, IdParamOf } from '@portal/contracts'
import { authenticate, ownBodyLimit, requireAdmin, uploadRequestOf as uploadOf, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { CourseService } from './course.service.ts'

export const CourseIdParam = IdParamOf('course')

/** `/courses`: the caller's list, and authoring (admins). */
export const courseRoutes = (svc: CourseService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/', async (c) => c.json(await svc.listForCaller(c.get('actor'))))
    // Uploads enforce their own body limits while streaming.
    .post('/', ownBodyLimit, requireAdmin, async (c) => c.json(await svc.create(uploadOf(c)), 201))
    .put('/:id', ownBodyLimit, requireAdmin, validate('param', CourseIdParam), async (c) => c.json(await svc.update(c.req.valid('param').id, uploadOf(c))))
    .delete('/:id', requireAdmin, validate('param', CourseIdParam), async (c) => c.json(await svc.remove(c.req.valid('param').id)))
    .post('/:id/assign', requireAdmin, validate('param', CourseIdParam), validate('json', AssignCourseBody), async (c) =>
      c.json(await svc.assign(c.req.valid('param').id, c.req.valid('json').userIds)),
    )

/** `/admin/courses`: every course with its modules and assigned users. */
export const adminCourseRoutes = (svc: CourseService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', async (c) => c.json(await svc.listAdmin()))
