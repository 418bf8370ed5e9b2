import type { EntityManager } from '@mikro-orm/postgresql'
import {
  COMPLETION_RULES,
  COURSE_MESSAGES,
  PROGRESS_TRACKER,
  type CompleteModuleResponse,
  type CompletionTrigger,
  type CourseModulesProgress,
  type CourseStatus,
  type CourseWithProgress,
  type LearnerModule,
} from '@portal/contracts'
import { AppError, badRequest, recordEvent, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { iso, requireCourse, requireModule, toCourseModule, type CourseRow, type ModuleRow } from '../access.ts'
import { openableCourses } from '../course.repository.ts'
import { allModulesComplete } from './course-completion.ts'
import { openRetakes, recordItemCompletion } from '../../assignments/index.ts'
import { progressRepository, type ProgressRow } from './progress.repository.ts'

export const contentDecides = () => new AppError(422, 'content_decides', COURSE_MESSAGES.contentDecides)

export const engagementTooShort = (trigger: string) =>
  new AppError(422, 'engagement_too_short', trigger === 'manual' ? COURSE_MESSAGES.engageMoreManual : COURSE_MESSAGES.engageMore)

export type CompletionOutcome = CompleteModuleResponse

/**
 * What a package's own content says of a learner's completion of it (the SCORM runtime's
 * `contentCompletion`, scorm/content-completion.ts): the app hands it in, so progress reads no SCORM state.
 */
export type ContentCompletionOf = (em: EntityManager, userId: string, module: Pick<ModuleRow, 'id' | 'manifest' | 'scorm_version'>) => Promise<{ done: boolean }>

/**
 * A launch of a module (a file, a SCORM package or a cmi5 AU), in the launch's transaction: the
 * module marked started (opened, learner §3) and the launch announced (statements out, issue 26).
 */
export async function markLaunched(
  tx: EntityManager,
  p: { userId: string; module: Pick<ModuleRow, 'id' | 'title' | 'course_id'>; kind: 'file' | 'scorm' | 'cmi5'; at: Date },
): Promise<void> {
  await progressRepository.touch(tx, { userId: p.userId, moduleId: p.module.id, courseId: p.module.course_id, floor: PROGRESS_TRACKER.opened, at: p.at })
  recordEvent(tx, 'learning.module.launched.v1', {
    userId: p.userId,
    courseId: p.module.course_id,
    moduleId: p.module.id,
    moduleTitle: p.module.title,
    kind: p.kind,
    launchedAt: p.at.toISOString(),
  })
}

/**
 * Records the completion of `module` for `userId` once (in `tx`, under a per-learner lock), with
 * `learning.module.completed.v1`, and the course's completion with `learning.course.completed.v1`
 * when every module is now complete. `checkEngagement` applies the engagement rule (learner §5)
 * unless the module's SCORM state already reports completion.
 */
export async function completeModule(
  tx: EntityManager,
  p: {
    userId: string
    module: Pick<ModuleRow, 'id' | 'title' | 'is_scorm' | 'manifest' | 'scorm_version'>
    course: CourseRow
    trigger: string
    at: Date
    /** The company's time zone: the course completion's day there counts for the learner's assignments. */
    timeZone: string
    /** What the content reported with its completion (score in percent, passed or failed), for statements out (issue 26). */
    result?: { score: number | null; passed: boolean | null }
  } & ({ checkEngagement: false } | { checkEngagement: true; contentCompletion: ContentCompletionOf }),
): Promise<CompletionOutcome> {
  await progressRepository.lockLearnerCourse(tx, p.course.id, p.userId)
  const row = await progressRepository.moduleRow(tx, p.userId, p.module.id)
  if (row?.completed_at) {
    const courseAt = iso(await progressRepository.courseCompletedAt(tx, p.userId, p.course.id))
    return { moduleId: p.module.id, completed_at: iso(row.completed_at)!, newly_completed: false, course_completed: courseAt !== null, course_completed_at: courseAt }
  }
  if (p.checkEngagement) {
    // The package's own content reports the module complete: the engagement rule does not apply then.
    const reported = p.module.is_scorm && (await p.contentCompletion(tx, p.userId, p.module)).done
    // Content that talks to the SCORM runtime decides its completion itself (issue 15): no other
    // rule (time, closing, reloads, completion pages, a click) completes it while it says otherwise.
    if (!reported && p.module.is_scorm && (await progressRepository.contentTalks(tx, p.userId, p.module.id))) throw contentDecides()
    if (!reported) {
      const rule = p.trigger === 'manual' ? COMPLETION_RULES.manual : COMPLETION_RULES.other
      const startedAt = row?.started_at ? new Date(row.started_at).getTime() : null
      const seconds = startedAt === null ? 0 : (p.at.getTime() - startedAt) / 1000
      if (seconds < rule.minSeconds || (row?.progress ?? 0) < rule.minProgress) throw engagementTooShort(p.trigger)
    }
  }
  await progressRepository.completeModule(tx, { userId: p.userId, moduleId: p.module.id, courseId: p.course.id, trigger: p.trigger, at: p.at })
  recordEvent(tx, 'learning.module.completed.v1', {
    userId: p.userId,
    courseId: p.course.id,
    courseTitle: p.course.title,
    moduleId: p.module.id,
    moduleTitle: p.module.title,
    completedAt: p.at.toISOString(),
    trigger: p.trigger,
    ...(p.result ? { score: p.result.score, passed: p.result.passed } : {}),
  })
  // The course was not complete before (this module was not): it is now if every other module is.
  const counts = await progressRepository.courseCounts(tx, p.userId, p.course.id)
  let courseAt: string | null = null
  if (counts && allModulesComplete(counts.total, counts.done)) {
    // Completed again after modules were added: the completion is of the course as it is now.
    await progressRepository.completeCourse(tx, p.userId, p.course.id, p.at)
    recordEvent(tx, 'learning.course.completed.v1', { userId: p.userId, courseId: p.course.id, courseTitle: p.course.title, completedAt: p.at.toISOString() })
    // The learner's assignments of the course are completed with it (issue 24), in this transaction.
    await recordItemCompletion(tx, { userId: p.userId, kind: 'course', itemId: p.course.id, at: p.at, timeZone: p.timeZone })
    courseAt = p.at.toISOString()
  } else if (counts && counts.total > 0) {
    // Group reports follow course progress from events (decision 0029): one per module completed.
    const progress = Math.round(counts.progress_sum / counts.total)
    recordEvent(tx, 'learning.course.progressed.v1', { userId: p.userId, courseId: p.course.id, courseTitle: p.course.title, progress, at: p.at.toISOString() })
  }
  return { moduleId: p.module.id, completed_at: p.at.toISOString(), newly_completed: true, course_completed: courseAt !== null, course_completed_at: courseAt }
}

const learnerModule = (m: ModuleRow, p: ProgressRow | undefined): LearnerModule => ({
  ...toCourseModule(m),
  // Why a package failed is for admins (who can fix it); learners see that it did.
  processing_error: m.processing_error === null ? null : COURSE_MESSAGES.processingFailed,
  is_unlocked: true,
  started_at: iso(p?.started_at),
  completed_at: iso(p?.completed_at),
  completed_by: p?.completed_at ? (p.completion_trigger ?? null) : null,
  progress: p ? (p.completed_at ? 100 : p.progress) : 0,
  last_accessed: iso(p?.last_accessed),
})

/**
 * A course is completed while every one of its modules is (learner §4): a module added after the
 * learner finished makes it in progress again; the completion recorded then is its date once the
 * new module is done too.
 */
function courseState(modules: LearnerModule[], completion: Date | string | null) {
  const progress = modules.length ? Math.round(modules.reduce((s, m) => s + m.progress, 0) / modules.length) : 0
  const allDone = allModulesComplete(modules.length, modules.filter((m) => m.completed_at !== null).length)
  const completed_at = allDone
    ? (iso(completion) ??
      modules
        .map((m) => m.completed_at!)
        .sort()
        .at(-1)!)
    : null
  const status: CourseStatus = completed_at ? 'completed' : modules.some((m) => m.progress > 0 || m.started_at !== null) ? 'in-progress' : 'not-started'
  return { progress, status, completed_at }
}

export function createProgressService(ctx: LearningContext, deps: { contentCompletion: ContentCompletionOf }) {
  const { orm, now } = ctx

  /**
   * A recurring assignment's next cycle of the learner's course(s) that opened before the scan came
   * by: rolled forward, the course started over, before the learner sees or moves it (decision 0051).
   */
  const retakes = (em: EntityManager, userId: string, courseId?: number) => openRetakes(em, { userId, kind: 'course', itemId: courseId }, { today: ctx.today(), at: now() })

  /** Modules, progress and completions of `courses` for `userId`. */
  async function withProgress(em: EntityManager, userId: string, courses: CourseRow[]): Promise<CourseWithProgress[]> {
    if (!courses.length) return []
    const ids = `{${courses.map((c) => c.id).join(',')}}`
    const [modules, progress, completions] = await Promise.all([
      progressRepository.modulesOf(em, ids),
      progressRepository.rowsOf(em, userId, ids),
      progressRepository.completionsOf(em, userId, ids),
    ])
    const byModule = new Map(progress.map((p) => [p.module_id, p]))
    const done = new Map(completions.map((c) => [c.course_id, c.completed_at]))
    return courses.map((c) => {
      const mods = modules.filter((m) => m.course_id === c.id).map((m) => learnerModule(m, byModule.get(m.id)))
      const state = courseState(mods, done.get(c.id) ?? null)
      return { id: c.id, title: c.title, status: state.status, progress: state.progress, is_assigned_to_all: c.is_assigned_to_all, completed_at: state.completed_at, modules: mods }
    })
  }

  return {
    /** GET /courses/with-progress: the caller's courses (admins: all), newest first. */
    async listWithProgress(actor: Actor): Promise<CourseWithProgress[]> {
      const em = orm.em.fork()
      const courses = await openableCourses(em, actor)
      await retakes(em, actor.userId)
      return withProgress(em, actor.userId, courses)
    },

    /** GET /modules/course/{id}/progress. */
    async courseProgress(actor: Actor, courseId: number): Promise<CourseModulesProgress> {
      const em = orm.em.fork()
      const course = await requireCourse(em, actor, courseId)
      await retakes(em, actor.userId, course.id)
      const [c] = await withProgress(em, actor.userId, [course])
      return { data: { courseId: c!.id, title: c!.title, status: c!.status, progress: c!.progress, completed_at: c!.completed_at, modules: c!.modules } }
    },

    /** PUT /modules/{id}/progress: never down, at most 99 until completion. */
    async setProgress(actor: Actor, moduleId: number, body: { progress: number; courseId: number }) {
      const em = orm.em.fork()
      const { module } = await requireModule(em, actor, moduleId)
      if (module.course_id !== body.courseId) throw badRequest('This module does not belong to that course', 'module_course_mismatch')
      await retakes(em, actor.userId, module.course_id)
      const row = await progressRepository.touch(em, { userId: actor.userId, moduleId, courseId: module.course_id, floor: Math.round(body.progress), at: now() })
      return { moduleId, progress: row.progress, started_at: iso(row.started_at), completed_at: iso(row.completed_at) }
    },

    /** PUT /modules/{id}/complete: recorded once; the engagement rule guards completions the content did not report. */
    async complete(actor: Actor, moduleId: number, body: { courseId: number; trigger: CompletionTrigger }): Promise<CompleteModuleResponse> {
      const em = orm.em.fork()
      const { module, course } = await requireModule(em, actor, moduleId)
      if (module.course_id !== body.courseId) throw badRequest('This module does not belong to that course', 'module_course_mismatch')
      await retakes(em, actor.userId, module.course_id)
      return em.fork().transactional((tx) =>
        completeModule(tx, {
          userId: actor.userId,
          module,
          course,
          trigger: body.trigger,
          at: now(),
          timeZone: ctx.timeZone,
          checkEngagement: true,
          contentCompletion: deps.contentCompletion,
        }),
      )
    },
  }
}
export type ProgressService = ReturnType<typeof createProgressService>
