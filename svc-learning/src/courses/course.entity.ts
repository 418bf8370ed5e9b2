import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { Cmi5Course, Course, CourseModule, CourseSummary, ProcessingStatus, ScormItem, ScormOrganization, ScormVersion } from '@portal/contracts'

/** A course; its modules live in `course_modules`. */
export const CourseEntity = defineEntity({
  name: 'CourseEntity',
  tableName: 'courses',
  properties: {
    id: p.integer().primary().autoincrement(),
    title: p.string(),
    isAssignedToAll: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type CourseEntity = InferEntity<typeof CourseEntity>

/**
 * A parsed package as stored in `course_modules.manifest`: item hrefs are relative to the package
 * root and keep their query string (the launch answer turns them into content URLs).
 */
export interface StoredManifest {
  title: string
  items: ScormItem[]
  /** SCORM 2004: the organization with its sequencing (absent in manifests stored before it was kept). */
  organization?: ScormOrganization
  /** cmi5: the course structure from cmi5.xml; `items` is its block/AU tree (decision 0053). */
  cmi5?: Cmi5Course
}

/** What is stored of a parsed package. */
export const toStoredManifest = (info: Pick<StoredManifest, 'title' | 'items' | 'organization' | 'cmi5'>): StoredManifest => ({
  title: info.title,
  items: info.items,
  ...(info.organization ? { organization: info.organization } : {}),
  ...(info.cmi5 ? { cmi5: info.cmi5 } : {}),
})

/** A module of a course: an uploaded file, or a SCORM/AICC package extracted in the background. */
export const CourseModuleEntity = defineEntity({
  name: 'CourseModuleEntity',
  tableName: 'course_modules',
  properties: {
    id: p.integer().primary().autoincrement(),
    courseId: p.integer(),
    title: p.string(),
    position: p.integer(),
    originalName: p.string(),
    contentType: p.string(),
    size: p.bigint('number'),
    isScorm: p.boolean(),
    storageKey: p.string(),
    processingStatus: p.string().$type<ProcessingStatus>(),
    processingError: p.string().nullable(),
    leaseUntil: p.datetime().nullable(),
    scormVersion: p.string().$type<ScormVersion>().nullable(),
    scormEdition: p.string().nullable(),
    manifest: p.json<StoredManifest>().nullable(),
    contentPrefix: p.string().nullable(),
    scoCount: p.integer().default(0),
    hasEdits: p.boolean().default(false),
    /** The package holds a Captivate project the Timing Editor edits; null until checked. */
    scormEditable: p.boolean().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type CourseModuleEntity = InferEntity<typeof CourseModuleEntity>

/** A course assigned to one user (besides `is_assigned_to_all`). */
export const CourseAssignmentEntity = defineEntity({
  name: 'CourseAssignmentEntity',
  tableName: 'course_assignments',
  properties: {
    courseId: p.integer().primary(),
    userId: p.uuid().primary(),
    assignedAt: p.datetime(),
  },
})
export type CourseAssignmentEntity = InferEntity<typeof CourseAssignmentEntity>

/** The course as admins see it; `modules` are already the contract's (`toCourseModule`). */
export const toCourseDto = (c: CourseEntity, modules: CourseModule[], assignedUserIds: string[]): Course => ({
  id: c.id,
  title: c.title,
  is_assigned_to_all: c.isAssignedToAll,
  assigned_user_ids: assignedUserIds,
  modules,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
})

export const toCourseSummary = (c: CourseEntity, moduleCount: number): CourseSummary => ({
  id: c.id,
  title: c.title,
  is_assigned_to_all: c.isAssignedToAll,
  module_count: moduleCount,
  created_at: c.createdAt.toISOString(),
})
