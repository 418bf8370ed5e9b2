import type { EntityManager } from '@mikro-orm/postgresql'
import { PROGRESS_TRACKER } from '@portal/contracts'
import { MODULE_COLUMNS, type ModuleRow } from '../course.repository.ts'
import { allModulesCompleteSql, courseCompleteSql } from './course-completion.ts'

/** A learner's `module_progress` row as the progress service reads it. */
export interface ProgressRow {
  module_id: number
  progress: number
  started_at: Date | string | null
  completed_at: Date | string | null
  completion_trigger?: string | null
  last_accessed: Date | string | null
}

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

interface CourseHistoryRow {
  id: number
  title: string
  progress_sum: number | string
  module_count: number | string
  started: boolean
  completed_at: Date | string | null
  last_accessed: Date | string | null
}

/** A course the learner started or completed, with the sum of their module progress over its modules. */
export interface CourseHistoryFacts {
  courseId: number
  title: string
  progressSum: number
  moduleCount: number
  started: boolean
  completedAt: Date | null
  lastAccessed: Date | null
}

const dateOrNull = (v: Date | string | null) => (v === null ? null : new Date(v))

/** The SQL of learners' progress through courses: module progress rows and course completions. */
export const progressRepository = {
  /**
   * The learner's started or completed courses, most recently used first. Completed: every module
   * of the course is, now (a module added later makes it in progress again).
   */
  async courseHistoryRows(em: EntityManager, userId: string): Promise<CourseHistoryFacts[]> {
    const rows = (await em.execute(
      `with mine as (
         select course_id, sum(progress) as progress_sum, bool_or(started_at is not null) as started, max(last_accessed) as last_accessed,
                count(completed_at) as done, max(completed_at) as last_done
           from module_progress where user_id = ? group by course_id),
       courses_of as (
         select c.id, c.title, coalesce(m.progress_sum, 0) as progress_sum, coalesce(m.started, false) as started, m.last_accessed,
                coalesce(m.done, 0) as done, m.last_done, cc.completed_at as recorded_at, cc.user_id is not null as recorded,
                (select count(*) from course_modules cm where cm.course_id = c.id) as module_count
           from courses c
           left join mine m on m.course_id = c.id
           left join course_completions cc on cc.course_id = c.id and cc.user_id = ?)
       select id, title, progress_sum, started, last_accessed, module_count,
              case when ${allModulesCompleteSql('module_count', 'done')} then coalesce(recorded_at, last_done) end as completed_at
         from courses_of
        where started or recorded
        order by greatest(last_accessed, recorded_at) desc nulls last, id desc`,
      [userId, userId],
    )) as CourseHistoryRow[]
    return rows.map((r) => ({
      courseId: Number(r.id),
      title: r.title,
      progressSum: Number(r.progress_sum),
      moduleCount: Number(r.module_count),
      started: r.started,
      completedAt: dateOrNull(r.completed_at),
      lastAccessed: dateOrNull(r.last_accessed),
    }))
  },

  /**
   * Makes sure (user, module) has a progress row that is started, accessed now and at least at
   * `floor` percent (never above 99 before completion). Used by launches, commits and progress saves.
   */
  async touch(em: EntityManager, p: { userId: string; moduleId: number; courseId: number; floor: number; at: Date }) {
    // em.execute: inside the caller's transaction when there is one (a launch's, a cmi5 judgement's).
    const [row] = (await em.execute(`${touchProgressSql('values (?, ?, ?, ?, ?, ?)')} returning progress, started_at, completed_at`, [
      p.userId,
      p.moduleId,
      p.courseId,
      Math.min(p.floor, PROGRESS_TRACKER.maxBeforeComplete),
      p.at,
      p.at,
    ])) as ProgressRow[]
    return row!
  },

  /** The learner's runtime has committed for this SCORM module (a state other than a saved progress record, launch 0). */
  async contentTalks(tx: EntityManager, userId: string, moduleId: number): Promise<boolean> {
    const rows = await tx.execute('select 1 from scorm_states where user_id = ? and module_id = ? and launch_at <> 0 limit 1', [userId, moduleId])
    return rows.length > 0
  },

  /** Serializes one learner's completions in one course (until `tx` ends). */
  lockLearnerCourse: (tx: EntityManager, courseId: number, userId: string) => tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [courseId, userId]),

  async moduleRow(tx: EntityManager, userId: string, moduleId: number) {
    const [row] = (await tx.execute('select progress, started_at, completed_at from module_progress where user_id = ? and module_id = ?', [userId, moduleId])) as ProgressRow[]
    return row
  },

  /** The recorded course completion, while it still holds: a module added since makes the course open again. */
  async courseCompletedAt(tx: EntityManager, userId: string, courseId: number) {
    const [c] = (await tx.execute(
      `select cc.completed_at from course_completions cc where cc.user_id = ? and cc.course_id = ? and ${courseCompleteSql('cc.user_id', 'cc.course_id')}`,
      [userId, courseId],
    )) as { completed_at: Date }[]
    return c?.completed_at
  },

  /** The module's completion: progress 100, started if it was not, completed now by `trigger`. */
  completeModule: (tx: EntityManager, p: { userId: string; moduleId: number; courseId: number; trigger: string; at: Date }) =>
    tx.execute(
      `insert into module_progress as m (user_id, module_id, course_id, progress, started_at, completed_at, completion_trigger, last_accessed)
     values (?, ?, ?, 100, ?, ?, ?, ?)
     on conflict (user_id, module_id) do update set progress = 100, started_at = coalesce(m.started_at, excluded.started_at),
       completed_at = excluded.completed_at, completion_trigger = excluded.completion_trigger, last_accessed = excluded.last_accessed`,
      [p.userId, p.moduleId, p.courseId, p.at, p.at, p.trigger, p.at],
    ),

  /** The course's modules, how many of them the learner completed, and the sum of their progress. */
  async courseCounts(tx: EntityManager, userId: string, courseId: number) {
    const [counts] = (await tx.execute(
      `select count(*)::int as total, count(mp.completed_at)::int as done, coalesce(sum(mp.progress), 0)::int as progress_sum from course_modules cm
     left join module_progress mp on mp.module_id = cm.id and mp.user_id = ? where cm.course_id = ?`,
      [userId, courseId],
    )) as { total: number; done: number; progress_sum: number }[]
    return counts
  },

  /** The course's completion, of the course as it is now (completed again after modules were added). */
  completeCourse: (tx: EntityManager, userId: string, courseId: number, at: Date) =>
    tx.execute(
      'insert into course_completions (user_id, course_id, completed_at) values (?, ?, ?) on conflict (user_id, course_id) do update set completed_at = excluded.completed_at',
      [userId, courseId, at],
    ),

  /** The modules of courses `ids` (a Postgres array literal), in course order. */
  modulesOf: (em: EntityManager, ids: string) =>
    em.execute(`select ${MODULE_COLUMNS} from course_modules m where m.course_id = any(?::int[]) order by m.position, m.id`, [ids]) as Promise<ModuleRow[]>,

  /** The learner's progress rows in courses `ids` (a Postgres array literal). */
  rowsOf: (em: EntityManager, userId: string, ids: string) =>
    em
      .getConnection()
      .execute('select module_id, progress, started_at, completed_at, completion_trigger, last_accessed from module_progress where user_id = ? and course_id = any(?::int[])', [
        userId,
        ids,
      ]) as Promise<ProgressRow[]>,

  /** The learner's recorded completions of courses `ids` (a Postgres array literal). */
  completionsOf: (em: EntityManager, userId: string, ids: string) =>
    em.execute('select course_id, completed_at from course_completions where user_id = ? and course_id = any(?::int[])', [userId, ids]) as Promise<
      { course_id: number; completed_at: Date }[]
    >,
}
