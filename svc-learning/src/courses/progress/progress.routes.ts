import { Hono } from 'hono'
import { z } from 'zod'
import {
  CompleteModuleBody,
  CompleteModuleResponse,
  CourseModulesProgress,
  CourseWithProgress,
  IdParamOf,
  ModuleLaunch,
  ModuleProgressBody,
  ModuleProgressResponse,
} from '@portal/contracts'
import { authenticate, doc, validate, type Actor, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { CourseIdParam } from '../course.routes.ts'
import type { ProgressService } from './progress.service.ts'

const ModuleIdParam = IdParamOf('module')

const tags = ['Course progress']
const roles = 'a learner the course is assigned to (their own progress)'

/** The launch of a file module (the content service's `launchFile`), served under `/modules` with the progress routes. */
export interface FileLauncher {
  launchFile(actor: Actor, moduleId: number): Promise<ModuleLaunch>
}

/** `/courses/with-progress`: mounted before the courses routes so that `with-progress` is not read as an id. */
export const courseProgressRoutes = (svc: ProgressService, verifier: TokenVerifier) =>
  new Hono<AppEnv>().get(
    '/with-progress',
    doc({ summary: "The caller's courses with their progress", tags, roles: 'any signed-in user', responses: { 200: z.array(CourseWithProgress) } }),
    authenticate(verifier),
    async (c) => c.json(await svc.listWithProgress(c.get('actor'))),
  )

/** `/modules`: a course's module progress, progress updates, completion and the launch of file modules. */
export const moduleRoutes = (svc: ProgressService, content: FileLauncher, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get(
      '/course/:id/progress',
      doc({ summary: "The caller's progress in each module of a course", tags, roles, responses: { 200: CourseModulesProgress, 404: null } }),
      validate('param', CourseIdParam),
      async (c) => c.json(await svc.courseProgress(c.get('actor'), c.req.valid('param').id)),
    )
    .put(
      '/:id/progress',
      doc({ summary: "Sets the caller's progress in a module", tags, roles, responses: { 200: ModuleProgressResponse, 404: null } }),
      validate('param', ModuleIdParam),
      validate('json', ModuleProgressBody),
      async (c) => c.json(await svc.setProgress(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .put(
      '/:id/complete',
      doc({ summary: 'Completes a module for the caller', tags, roles, responses: { 200: CompleteModuleResponse, 404: null, 409: null } }),
      validate('param', ModuleIdParam),
      validate('json', CompleteModuleBody),
      async (c) => c.json(await svc.complete(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .get(
      '/:id/launch',
      doc({ summary: 'Launches a file module (its content URL on the content origin)', tags, roles, responses: { 200: ModuleLaunch, 404: null } }),
      validate('param', ModuleIdParam),
      async (c) => c.json(await content.launchFile(c.get('actor'), c.req.valid('param').id)),
    )
