import type { EntityManager } from '@mikro-orm/postgresql'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity } from './course.entity.ts'

const newestFirst = { orderBy: { createdAt: 'desc', id: 'desc' } } as const

export const courseRepository = {
  findById: (em: EntityManager, id: number) => em.findOne(CourseEntity, { id }),
  listAll: (em: EntityManager) => em.find(CourseEntity, {}, newestFirst),
  count: (em: EntityManager) => em.count(CourseEntity, {}),
  /** Courses assigned to everyone or to the user. */
  async listOpenable(em: EntityManager, userId: string) {
    const assigned = await em.find(CourseAssignmentEntity, { userId }, { fields: ['courseId'] })
    return em.find(CourseEntity, { $or: [{ isAssignedToAll: true }, { id: { $in: assigned.map((a) => a.courseId) } }] }, newestFirst)
  },
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
