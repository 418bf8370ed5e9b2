import type { EntityManager } from '@mikro-orm/postgresql'
import type { Actor } from '@portal/server-kit'
import { MODULE_COLUMNS, openableCourses, type ModuleRow } from './access.ts'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity } from './course.entity.ts'

const newestFirst = { orderBy: { createdAt: 'desc', id: 'desc' } } as const

const listAll = (em: EntityManager) => em.find(CourseEntity, {}, newestFirst)

export const courseRepository = {
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
      .execute(`select ${MODULE_COLUMNS} from course_modules m where m.course_id = any(?::int[]) order by m.course_id, m.position, m.id`, [
        `{${courseIds.join(',')}}`,
      ]) as Promise<ModuleRow[]>,
  modulesOf: (em: EntityManager, courseIds: number[]) =>
    em.find(CourseModuleEntity, { courseId: { $in: courseIds } }, { orderBy: { courseId: 'asc', position: 'asc', id: 'asc' } }),
  assignmentsOf: (em: EntityManager, courseIds: number[]) =>
    em.find(CourseAssignmentEntity, { courseId: { $in: courseIds } }, { orderBy: { assignedAt: 'asc', userId: 'asc' } }),
  async moduleCounts(em: EntityManager, courseIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>()
    if (courseIds.length === 0) return counts
    const rows = await em.find(CourseModuleEntity, { courseId: { $in: courseIds } }, { fields: ['id', 'courseId'] })
    for (const r of rows) counts.set(r.courseId, (counts.get(r.courseId) ?? 0) + 1)
    return counts
  },
}
