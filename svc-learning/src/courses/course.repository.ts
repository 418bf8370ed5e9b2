import type { EntityManager } from '@mikro-orm/postgresql'
import type { Actor } from '@portal/server-kit'
import type { ProcessingStatus, ScormVersion } from '@portal/contracts'
import { sqlWithParams } from '../sql.ts'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity, type StoredManifest } from './course.entity.ts'

const newestFirst = { orderBy: { createdAt: 'desc', id: 'desc' } } as const

const listAll = (em: EntityManager) => em.find(CourseEntity, {}, newestFirst)

export interface CourseRow {
  id: number
  title: string
  is_assigned_to_all: boolean
}

/** A `course_modules` row as the learner side reads it. */
export interface ModuleRow {
  id: number
  course_id: number
  title: string
  position: number
  original_name: string
  content_type: string
  size: number | string
  is_scorm: boolean
  storage_key: string
  processing_status: ProcessingStatus
  processing_error: string | null
  scorm_version: ScormVersion | null
  scorm_edition: string | null
  manifest: StoredManifest | string | null
  content_prefix: string | null
  sco_count: number
  has_edits: boolean
  /** The package holds a Captivate project; null until checked. */
  scorm_editable: boolean | null
}

export const MODULE_COLUMNS =
  'm.id, m.course_id, m.title, m.position, m.original_name, m.content_type, m.size, m.is_scorm, m.storage_key, m.processing_status, m.processing_error, m.scorm_version, m.scorm_edition, m.manifest, m.content_prefix, m.sco_count, m.has_edits, m.scorm_editable'

/**
 * "May open this course", the one rule (learner §4): admins any course, others a course assigned
 * to everyone or to them. The SQL condition on a course aliased `c` (the learner bound at `user`).
 */
export const assignedSql = (user: string) => `(c.is_assigned_to_all or exists (select 1 from course_assignments a where a.course_id = c.id and a.user_id = ${user}))`

/**
 * SQL condition: the learner (parameter `user`) may still open the course (parameter `course`):
 * it is assigned to them or to everyone. Launch tokens outlive an unassignment; content and
 * commits check this too.
 */
export const stillAssignedSql = (user: string, course: string) => `exists (select 1 from courses c where c.id = ${course} and ${assignedSql(user)})`

/** The courses `actor` may open, newest first. */
export const openableCourses = (em: EntityManager, actor: Actor): Promise<CourseRow[]> =>
  em
    .getConnection()
    .execute(
      `select id, title, is_assigned_to_all from courses c${actor.isAdmin ? '' : ` where ${assignedSql('?')}`} order by created_at desc, id desc`,
      actor.isAdmin ? [] : [actor.userId],
    ) as Promise<CourseRow[]>

export const courseRepository = {
  /** The course row, or undefined when it does not exist. */
  async findCourseRow(em: EntityManager, courseId: number): Promise<CourseRow | undefined> {
    const [course] = (await em.execute('select id, title, is_assigned_to_all from courses where id = ?', [courseId])) as CourseRow[]
    return course
  },

  /** The module row, or undefined when it does not exist. */
  async findModuleRow(em: EntityManager, moduleId: number): Promise<ModuleRow | undefined> {
    const [module] = (await em.execute(`select ${MODULE_COLUMNS} from course_modules m where m.id = ?`, [moduleId])) as ModuleRow[]
    return module
  },

  /** The learner may (still) open the course: assigned to them or to everyone (`stillAssignedSql`). */
  async isAssigned(em: EntityManager, courseId: number, userId: string): Promise<boolean> {
    // Placeholders in the order the condition names them: the course, then the learner.
    const [row] = (await em.execute(`select ${stillAssignedSql('?', '?')} as ok`, [courseId, userId])) as { ok: boolean }[]
    return row?.ok === true
  },

  /** `isAssigned` for the content requests' bursts (the launch's learner, then its course), values sent as parameters. */
  async isStillAssigned(em: EntityManager, userId: string, courseId: number): Promise<boolean> {
    const [row] = await sqlWithParams<{ ok: boolean }>(em, `select ${stillAssignedSql('$1', '$2')} as ok`, [userId, courseId])
    return row!.ok
  },

  /** Who the course is assigned to, read without loading entities (rows re-created after must not meet managed copies). */
  async assignedUserIds(em: EntityManager, courseId: number): Promise<string[]> {
    const rows = (await em.execute('select user_id from course_assignments where course_id = ?', [courseId])) as { user_id: string }[]
    return rows.map((r) => r.user_id)
  },

  /** How many courses there are (the demo seeds only an empty catalogue). */
  async countAll(em: EntityManager): Promise<number> {
    const [row] = (await em.execute('select count(*)::int as n from courses')) as { n: number }[]
    return Number(row!.n)
  },

  /** A deleted user's course assignments go. */
  deleteAssignmentsOfUser: (em: EntityManager, userId: string) => em.execute('delete from course_assignments where user_id = ?', [userId]),

  /** A deleted user's stored SCORM runtime data (whole cmi trees, shared data stores) goes. */
  async deleteRuntimeDataOfUser(em: EntityManager, userId: string): Promise<void> {
    await em.execute('delete from scorm_states where user_id = ?', [userId])
    await em.execute('delete from scorm_shared_data where user_id = ?', [userId])
  },

  findById: (em: EntityManager, id: number) => em.findOne(CourseEntity, { id }),
  listAll,
  count: (em: EntityManager) => em.count(CourseEntity, {}),
  /** The courses `actor` may open (the rule is `openableCourses`), newest first. */
  async listOpenable(em: EntityManager, actor: Actor) {
    if (actor.isAdmin) return listAll(em)
    const ids = (await openableCourses(em, actor)).map((c) => c.id)
    return em.find(CourseEntity, { id: { $in: ids } }, newestFirst)
  },
  /** The modules of `courseIds` as the contract's mapping (`toCourseModule`) reads them, in course order. */
  moduleRowsOf: (em: EntityManager, courseIds: number[]) =>
    em
      .getConnection()
      .execute(`select ${MODULE_COLUMNS} from course_modules m where m.course_id = any(?::int[]) order by m.course_id, m.position, m.id`, [`{${courseIds.join(',')}}`]) as Promise<
      ModuleRow[]
    >,
  modulesOf: (em: EntityManager, courseIds: number[]) =>
    em.find(CourseModuleEntity, { courseId: { $in: courseIds } }, { orderBy: { courseId: 'asc', position: 'asc', id: 'asc' } }),
  assignmentsOf: (em: EntityManager, courseIds: number[]) => em.find(CourseAssignmentEntity, { courseId: { $in: courseIds } }, { orderBy: { assignedAt: 'asc', userId: 'asc' } }),
  async moduleCounts(em: EntityManager, courseIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>()
    if (courseIds.length === 0) return counts
    const rows = await em.find(CourseModuleEntity, { courseId: { $in: courseIds } }, { fields: ['id', 'courseId'] })
    for (const r of rows) counts.set(r.courseId, (counts.get(r.courseId) ?? 0) + 1)
    return counts
  },
}
