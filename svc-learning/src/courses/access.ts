import type { EntityManager } from '@mikro-orm/postgresql'
import { COURSE_MESSAGES, type CourseModule } from '@portal/contracts'
import { forbidden, notFound, type Actor } from '@portal/server-kit'
import type { StoredManifest } from './course.entity.ts'
import { courseRepository, type CourseRow, type ModuleRow } from './course.repository.ts'

export const courseNotFound = () => notFound(COURSE_MESSAGES.courseNotFound, 'course_not_found')
export const moduleNotFound = () => notFound(COURSE_MESSAGES.moduleNotFound, 'module_not_found')
export const courseNotAssigned = () => forbidden(COURSE_MESSAGES.courseNotAssigned, 'course_not_assigned')

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
  // Only a SCORM package can hold a Captivate project; a package's is null until it has been checked.
  scorm_editable: m.is_scorm ? m.scorm_editable : false,
})

export type { CourseRow, ModuleRow } from './course.repository.ts'

export const manifestOf = (m: ModuleRow): StoredManifest | null =>
  m.manifest === null ? null : typeof m.manifest === 'string' ? (JSON.parse(m.manifest) as StoredManifest) : m.manifest

export const iso = (v: Date | string | null | undefined): string | null => (v == null ? null : new Date(v).toISOString())

/** The course the caller may open: 404 when it does not exist, 403 when it is not assigned to them. */
export async function requireCourse(em: EntityManager, actor: Actor, courseId: number): Promise<CourseRow> {
  const course = await courseRepository.findCourseRow(em, courseId)
  if (!course) throw courseNotFound()
  if (!actor.isAdmin && !(await courseRepository.isAssigned(em, course.id, actor.userId))) throw courseNotAssigned()
  return course
}

/** The module and its course, when the caller may open the course (404 module, then 403). */
export async function requireModule(em: EntityManager, actor: Actor, moduleId: number): Promise<{ module: ModuleRow; course: CourseRow }> {
  const module = await courseRepository.findModuleRow(em, moduleId)
  if (!module) throw moduleNotFound()
  const course = await courseRepository.findCourseRow(em, module.course_id)
  if (!course) throw moduleNotFound()
  if (!actor.isAdmin && !(await courseRepository.isAssigned(em, course.id, actor.userId))) throw courseNotAssigned()
  return { module, course }
}
