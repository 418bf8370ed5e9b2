import type { EntityManager } from '@mikro-orm/postgresql'
import type { UserStats } from '@portal/contracts'
import { roundPercent } from '../../percent.ts'
import { allModulesCompleteSql } from './course-completion.ts'

export type CourseStats = Pick<UserStats, 'coursesStarted' | 'coursesCompleted' | 'averageCourseProgress' | 'courseHistory'>

interface Row {
  id: number
  title: string
  progress_sum: number | string
  module_count: number | string
  started: boolean
  completed_at: Date | string | null
  last_accessed: Date | string | null
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

/**
 * The course half of a user's stats, read from the progress tables: a course is started when one
 * of its modules has a `started_at`; its progress is the mean of its modules' progress over all of
 * its modules (a module never opened counts 0), in whole percent. History lists started or
 * completed courses, most recently used first.
 */
export async function courseStatsOf(em: EntityManager, userId: string): Promise<CourseStats> {
  // Completed: every module of the course is, now (a module added later makes it in progress again).
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
  )) as Row[]
  const history = rows.map((r) => {
    const modules = Number(r.module_count)
    return {
      courseId: Number(r.id),
      courseName: r.title,
      progress: modules > 0 ? Math.round(Number(r.progress_sum) / modules) : 0,
      completedAt: iso(r.completed_at),
      lastAccessed: iso(r.last_accessed),
      started: r.started,
    }
  })
  const started = history.filter((c) => c.started)
  return {
    coursesStarted: started.length,
    coursesCompleted: history.filter((c) => c.completedAt !== null).length,
    averageCourseProgress: started.length ? roundPercent(started.reduce((s, c) => s + c.progress, 0) / started.length) : 0,
    courseHistory: history.map(({ started: _, ...c }) => c),
  }
}
