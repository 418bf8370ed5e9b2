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
import { MODULE_COLUMNS, iso, openableCourses, requireCourse, requireModule, toCourseModule, type CourseRow, type ModuleRow } from '../access.ts'
import { contentCompletion } from '../scorm/content-completion.ts'
import { allModulesComplete, courseCompleteSql } from './course-completion.ts'

interface ProgressRow {
  module_id: number
  progress: number
  started_at: Date | string | null
  completed_at: Date | string | null
  completion_trigger?: string | null
  last_accessed: Date | string | null
}

export const contentDecides = () => new AppError(422, 'content_decides', COURSE_MESSAGES.contentDecides)

/** The learner's runtime has committed for this SCORM module (a state other than a saved progress record, launch 0). */
async function contentTalks(tx: EntityManager, userId: string, moduleId: number): Promise<boolean> {
  const rows = await tx.execute('select 1 from scorm_states where user_id = ? and module_id = ? and launch_at <> 0 limit 1', [userId, moduleId])
  return rows.length > 0
}

export const engagementTooShort = (trigger: string) =>
  new AppError(422, 'engagement_too_short', trigger === 'manual' ? COURSE_MESSAGES.engageMoreManual : COURSE_MESSAGES.engageMore)

/**
 * The one upsert of a learner's `module_progress` row from `source` (a `values (...)` or a
 * `select` of user_id, module_id, course_id, progress, started_at, last_accessed): started once,
 * accessed now, progress never down and 100 once complete. The commit statement runs it as a CTE.
 */
export const touchProgressSql = (source: string) =>
  `insert into module_progress as m (user_id, module_id, course_id, progress, started_at, last_accessed)
   ${source}
   on conflict (user_id, module_id) do update set
     progress = case when m.completed_at is not null then 100 else greatest(m.progress, excluded.progress) end,
     started_at = coalesce(m.started_at, excluded.started_at),
     last_accessed = excluded.last_accessed`

/**
 * Makes sure (user, module) has a progress row that is started, accessed now and at least at
 * `floor` percent (never above 99 before completion). Used by launches, commits and progress saves.
 */
export async function touchProgress(em: EntityManager, p: { userId: string; moduleId: number; courseId: number; floor: number; at: Date }) {
  const [row] = (await em
    .getConnection()
    .execute(`${touchProgressSql('values (?, ?, ?, ?, ?, ?)')} returning progress, started_at, completed_at`, [
      p.userId,
      p.moduleId,
      p.courseId,
      Math.min(p.floor, PROGRESS_TRACKER.maxBeforeComplete),
      p.at,
      p.at,
    ])) as ProgressRow[]
  return row!
}

export type CompletionOutcome = CompleteModuleResponse

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
    checkEngagement: boolean
  },
): Promise<CompletionOutcome> {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [p.course.id, p.userId])
  const [row] = (await tx.execute('select progress, started_at, completed_at from module_progress where user_id = ? and module_id = ?', [
    p.userId,
    p.module.id,
  ])) as ProgressRow[]
  // The recorded course completion, while it still holds: a module added since makes the course open again.
  const courseDone = async () => {
    const [c] = (await tx.execute(
      `select cc.completed_at from course_completions cc where cc.user_id = ? and cc.course_id = ? and ${courseCompleteSql('cc.user_id', 'cc.course_id')}`,
      [p.userId, p.course.id],
    )) as { completed_at: Date }[]
    return c ? iso(c.completed_at) : null
  }
  if (row?.completed_at) {
    const courseAt = await courseDone()
    return { moduleId: p.module.id, completed_at: iso(row.completed_at)!, newly_completed: false, course_completed: courseAt !== null, course_completed_at: courseAt }
  }
  if (p.checkEngagement) {
    // The package's own content reports the module complete: the engagement rule does not apply then.
    const reported = p.module.is_scorm && (await contentCompletion(tx, p.userId, p.module)).done
    // Content that talks to the SCORM runtime decides its completion itself (issue 15): no other
    // rule (time, closing, reloads, completion pages, a click) completes it while it says otherwise.
    if (!reported && p.module.is_scorm && (await contentTalks(tx, p.userId, p.module.id))) throw contentDecides()
    if (!reported) {
      const rule = p.trigger === 'manual' ? COMPLETION_RULES.manual : COMPLETION_RULES.other
      const startedAt = row?.started_at ? new Date(row.started_at).getTime() : null
      const seconds = startedAt === null ? 0 : (p.at.getTime() - startedAt) / 1000
      if (seconds < rule.minSeconds || (row?.progress ?? 0) < rule.minProgress) throw engagementTooShort(p.trigger)
    }
  }
  await tx.execute(
    `insert into module_progress as m (user_id, module_id, course_id, progress, started_at, completed_at, completion_trigger, last_accessed)
     values (?, ?, ?, 100, ?, ?, ?, ?)
     on conflict (user_id, module_id) do update set progress = 100, started_at = coalesce(m.started_at, excluded.started_at),
       completed_at = excluded.completed_at, completion_trigger = excluded.completion_trigger, last_accessed = excluded.last_accessed`,
    [p.userId, p.module.id, p.course.id, p.at, p.at, p.trigger, p.at],
  )
  recordEvent(tx, 'learning.module.completed.v1', {
    userId: p.userId,
    courseId: p.course.id,
    courseTitle: p.course.title,
    moduleId: p.module.id,
    moduleTitle: p.module.title,
    completedAt: p.at.toISOString(),
    trigger: p.trigger,
  })
  // The course was not complete before (this module was not): it is now if every other module is.
  const [counts] = (await tx.execute(
    `select count(*)::int as total, count(mp.completed_at)::int as done, coalesce(sum(mp.progress), 0)::int as progress_sum from course_modules cm
     left join module_progress mp on mp.module_id = cm.id and mp.user_id = ? where cm.course_id = ?`,
    [p.userId, p.course.id],
  )) as { total: number; done: number; progress_sum: number }[]
  let courseAt: string | null = null
  if (counts && allModulesComplete(counts.total, counts.done)) {
    // Completed again after modules were added: the completion is of the course as it is now.
    await tx.execute(
      'insert into course_completions (user_id, course_id, completed_at) values (?, ?, ?) on conflict (user_id, course_id) do update set completed_at = excluded.completed_at',
      [p.userId, p.course.id, p.at],
    )
    recordEvent(tx, 'learning.course.completed.v1', { userId: p.userId, courseId: p.course.id, courseTitle: p.course.title, completedAt: p.at.toISOString() })
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
  const completed_at = allDone ? (iso(completion) ?? modules.map((m) => m.completed_at!).sort().at(-1)!) : null
  const status: CourseStatus = completed_at
    ? 'completed'
    : modules.some((m) => m.progress > 0 || m.started_at !== null)
      ? 'in-progress'
      : 'not-started'
  return { progress, status, completed_at }
}

export function createProgressService(ctx: LearningContext) {
  const { orm, now } = ctx

  /** Modules, progress and completions of `courses` for `userId`. */
  async function withProgress(em: EntityManager, userId: string, courses: CourseRow[]): Promise<CourseWithProgress[]> {
    if (!courses.length) return []
    const ids = `{${courses.map((c) => c.id).join(',')}}`
    const conn = em.getConnection()
    const [modules, progress, completions] = await Promise.all([
      conn.execute(`select ${MODULE_COLUMNS} from course_modules m where m.course_id = any(?::int[]) order by m.position, m.id`, [ids]) as Promise<ModuleRow[]>,
      conn.execute('select module_id, progress, started_at, completed_at, completion_trigger, last_accessed from module_progress where user_id = ? and course_id = any(?::int[])', [
        userId,
        ids,
      ]) as Promise<ProgressRow[]>,
      conn.execute('select course_id, completed_at from course_completions where user_id = ? and course_id = any(?::int[])', [userId, ids]) as Promise<
        { course_id: number; completed_at: Date }[]
      >,
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
      return withProgress(em, actor.userId, courses)
    },

    /** GET /modules/course/{id}/progress. */
    async courseProgress(actor: Actor, courseId: number): Promise<CourseModulesProgress> {
      const em = orm.em.fork()
      const course = await requireCourse(em, actor, courseId)
      const [c] = await withProgress(em, actor.userId, [course])
      return { data: { courseId: c!.id, title: c!.title, status: c!.status, progress: c!.progress, completed_at: c!.completed_at, modules: c!.modules } }
    },

    /** PUT /modules/{id}/progress: never down, at most 99 until completion. */
    async setProgress(actor: Actor, moduleId: number, body: { progress: number; courseId: number }) {
      const em = orm.em.fork()
      const { module } = await requireModule(em, actor, moduleId)
      if (module.course_id !== body.courseId) throw badRequest('This module does not belong to that course', 'module_course_mismatch')
      const row = await touchProgress(em, { userId: actor.userId, moduleId, courseId: module.course_id, floor: Math.round(body.progress), at: now() })
      return { moduleId, progress: row.progress, started_at: iso(row.started_at), completed_at: iso(row.completed_at) }
    },

    /** PUT /modules/{id}/complete: recorded once; the engagement rule guards completions the content did not report. */
    async complete(actor: Actor, moduleId: number, body: { courseId: number; trigger: CompletionTrigger }): Promise<CompleteModuleResponse> {
      const em = orm.em.fork()
      const { module, course } = await requireModule(em, actor, moduleId)
      if (module.course_id !== body.courseId) throw badRequest('This module does not belong to that course', 'module_course_mismatch')
      return em.fork().transactional((tx) =>
        completeModule(tx, { userId: actor.userId, module, course, trigger: body.trigger, at: now(), checkEngagement: true }),
      )
    },
  }
}
export type ProgressService = ReturnType<typeof createProgressService>
