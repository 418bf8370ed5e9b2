import type { EntityManager } from '@mikro-orm/postgresql'
import type { UserStats } from '@portal/contracts'
import { roundPercent } from '../../percent.ts'
import { progressRepository } from './progress.repository.ts'

export type CourseStats = Pick<UserStats, 'coursesStarted' | 'coursesCompleted' | 'averageCourseProgress' | 'courseHistory'>

const iso = (v: Date | null) => (v === null ? null : v.toISOString())

/**
 * The course half of a user's stats, read from the progress tables: a course is started when one
 * of its modules has a `started_at`; its progress is the mean of its modules' progress over all of
 * its modules (a module never opened counts 0), in whole percent. History lists started or
 * completed courses, most recently used first.
 */
export async function courseStatsOf(em: EntityManager, userId: string): Promise<CourseStats> {
  const rows = await progressRepository.courseHistoryRows(em, userId)
  const history = rows.map((r) => ({
    courseId: r.courseId,
    courseName: r.title,
    progress: r.moduleCount > 0 ? Math.round(r.progressSum / r.moduleCount) : 0,
    completedAt: iso(r.completedAt),
    lastAccessed: iso(r.lastAccessed),
    started: r.started,
  }))
  const started = history.filter((c) => c.started)
  return {
    coursesStarted: started.length,
    coursesCompleted: history.filter((c) => c.completedAt !== null).length,
    averageCourseProgress: started.length ? roundPercent(started.reduce((s, c) => s + c.progress, 0) / started.length) : 0,
    courseHistory: history.map(({ started: _, ...c }) => c),
  }
}
