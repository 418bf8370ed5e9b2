import { Hono } from 'hono'
import { AssignCourseBody, AssignResponse, Course, CourseSummary, IdParamOf, MessageResponse } from '@portal/contracts'
import { z } from 'zod'
import { authenticate, doc, ownBodyLimit, requireAdmin, uploadRequestOf as uploadOf, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import type { CourseService } from './course.service.ts'

export const CourseIdParam = IdParamOf('course')

const tags = ['Courses']
const upload = { media: 'multipart/form-data', description: 'The course fields (`title`, `description`, `modules` as JSON) and its files (SCORM, cmi5 or media packages)' }

/** `/courses`: the caller's list, and authoring (admins). */
export const courseRoutes = (svc: CourseService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/', doc({ summary: 'The courses the caller may take (admins: all)', tags, roles: 'any signed-in user', responses: { 200: z.array(CourseSummary) } }), async (c) =>
      c.json(await svc.listForCaller(c.get('actor'))),
    )
    // Uploads enforce their own body limits while streaming.
    .post('/', doc({ summary: 'Creates a course from an upload', tags, body: upload, responses: { 201: Course, 413: null, 422: null } }), ownBodyLimit, requireAdmin, async (c) =>
      c.json(await svc.create(uploadOf(c)), 201),
    )
    .put(
      '/:id',
      doc({ summary: 'Edits a course (and replaces files)', tags, body: upload, responses: { 200: Course, 404: null, 413: null, 422: null } }),
      ownBodyLimit,
      requireAdmin,
      validate('param', CourseIdParam),
      async (c) => c.json(await svc.update(c.req.valid('param').id, uploadOf(c))),
    )
    .delete('/:id', doc({ summary: 'Deletes a course', tags, responses: { 200: MessageResponse, 404: null } }), requireAdmin, validate('param', CourseIdParam), async (c) =>
      c.json(await svc.remove(c.req.valid('param').id)),
    )
    .post(
      '/:id/assign',
      doc({ summary: 'Assigns a course to users', tags, responses: { 200: AssignResponse, 404: null } }),
      requireAdmin,
      validate('param', CourseIdParam),
      validate('json', AssignCourseBody),
      async (c) => c.json(await svc.assign(c.req.valid('param').id, c.req.valid('json').userIds)),
    )

/** `/admin/courses`: every course with its modules and assigned users. */
export const adminCourseRoutes = (svc: CourseService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .use(requireAdmin)
    .get('/', doc({ summary: 'Every course with its modules and assigned users', tags, responses: { 200: z.array(Course) } }), async (c) => c.json(await svc.listAdmin()))
