import { Hono } from 'hono'
import { CompleteModuleBody, IdParamOf, ModuleProgressBody, type ModuleLaunch } from '@portal/contracts'
import { authenticate, validate, type Actor, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { CourseIdParam } from '../course.routes.ts'
import type { ProgressService } from './progress.service.ts'

const ModuleIdParam = IdParamOf('module')

/** The launch of a file module (the content service's `launchFile`), served under `/modules` with the progress routes. */
export interface FileLauncher {
  launchFile(actor: Actor, moduleId: number): Promise<ModuleLaunch>
}

/** `/courses/with-progress`: mounted before the courses routes so that `with-progress` is not read as an id. */
export const courseProgressRoutes = (svc: ProgressService, verifier: TokenVerifier) =>
  new Hono<AppEnv>().get('/with-progress', authenticate(verifier), async (c) => c.json(await svc.listWithProgress(c.get('actor'))))

/** `/modules`: a course's module progress, progress updates, completion and the launch of file modules. */
export const moduleRoutes = (svc: ProgressService, content: FileLauncher, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .get('/course/:id/progress', validate('param', CourseIdParam), async (c) => c.json(await svc.courseProgress(c.get('actor'), c.req.valid('param').id)))
    .put('/:id/progress', validate('param', ModuleIdParam), validate('json', ModuleProgressBody), async (c) =>
      c.json(await svc.setProgress(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .put('/:id/complete', validate('param', ModuleIdParam), validate('json', CompleteModuleBody), async (c) =>
      c.json(await svc.complete(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .get('/:id/launch', validate('param', ModuleIdParam), async (c) => c.json(await content.launchFile(c.get('actor'), c.req.valid('param').id)))
