import type { EntityManager } from '@mikro-orm/postgresql'
import { COURSE_MESSAGES, type CourseModule, type ProcessingStatus, type ScormVersion } from '@portal/contracts'
import { forbidden, notFound, type Actor } from '@portal/server-kit'
import type { StoredManifest } from './course.entity.ts'

export const courseNotFound = () => notFound(COURSE_MESSAGES.courseNotFound, 'course_not_found')
export const moduleNotFound = () => notFound(COURSE_MESSAGES.moduleNotFound, 'module_not_found')
export const courseNotAssigned = () => forbidden(COURSE_MESSAGES.courseNotAssigned, 'course_not_assigned')

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
}

export const MODULE_COLUMNS =
  'm.id, m.course_id, m.title, m.position, m.original_name, m.content_type, m.size, m.is_scorm, m.storage_key, m.processing_status, m.processing_error, m.scorm_version, m.scorm_edition, m.manifest, m.content_prefix, m.sco_count, m.has_edits'

/** The module as the contract shows it to admins and learners (`file_path` is the original file name, never a storage path). */
export const toCourseModule = (m: ModuleRow): CourseModule => ({
  id: m.id,
  course_id: m.course_id,
  title: m.title,
  order: m.position,
  file_path: m.original_name,
  size: Number(m.size),
  is_scorm: m.is_scorm,
  content_type: m.content_type,
  processing_status: m.processing_status,
  processing_error: m.processing_error,
  scorm_version: m.scorm_version,
  scorm_edition: m.scorm_edition,
  sco_count: m.sco_count,
})

export const manifestOf = (m: ModuleRow): StoredManifest | null =>
  m.manifest === null ? null : typeof m.manifest === 'string' ? (JSON.parse(m.manifest) as StoredManifest) : m.manifest

export const iso = (v: Date | string | null | undefined): string | null => (v == null ? null : new Date(v).toISOString())

/**
 * "May open this course", the one rule (learner §4): admins any course, others a course assigned
 * to everyone or to them. The SQL condition on a course aliased `c` (the learner bound at `user`).
 */
export const assignedSql = (user: string) =>
  `(c.is_assigned_to_all or exists (select 1 from course_assignments a where a.course_id = c.id and a.user_id = ${user}))`

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

/** The course row, or undefined when it does not exist. */
export async function courseRow(em: EntityManager, courseId: number): Promise<CourseRow | undefined> {
  const [course] = (await em.getConnection().execute('select id, title, is_assigned_to_all from courses where id = ?', [courseId])) as CourseRow[]
  return course
}

async function mayOpen(em: EntityManager, actor: Actor, course: CourseRow): Promise<boolean> {
  if (actor.isAdmin) return true
  // Placeholders in the order the condition names them: the course, then the learner.
  const [row] = (await em.getConnection().execute(`select ${stillAssignedSql('?', '?')} as ok`, [course.id, actor.userId])) as { ok: boolean }[]
  return row?.ok === true
}

/** The course the caller may open: 404 when it does not exist, 403 when it is not assigned to them. */
export async function requireCourse(em: EntityManager, actor: Actor, courseId: number): Promise<CourseRow> {
  const course = await courseRow(em, courseId)
  if (!course) throw courseNotFound()
  if (!(await mayOpen(em, actor, course))) throw courseNotAssigned()
  return course
}

/** The module and its course, when the caller may open the course (404 module, then 403). */
export async function requireModule(em: EntityManager, actor: Actor, moduleId: number): Promise<{ module: ModuleRow; course: CourseRow }> {
  const [module] = (await em.getConnection().execute(`select ${MODULE_COLUMNS} from course_modules m where m.id = ?`, [moduleId])) as ModuleRow[]
  if (!module) throw moduleNotFound()
  const course = await courseRow(em, module.course_id)
  if (!course) throw moduleNotFound()
  if (!(await mayOpen(em, actor, course))) throw courseNotAssigned()
  return { module, course }
}
