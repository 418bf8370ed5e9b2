import type { EntityManager } from '@mikro-orm/postgresql'
import type { TrackingItem } from '@portal/contracts'
import type { GroupReport, MemberReport } from '../mail/index.ts'
import { learningFacts } from './learning-facts.repository.ts'
import { ruleRepository } from './rule.repository.ts'

/**
 * A group's report (admin §2 group reports): for each member, each tracked exam (attempts, best
 * score, passed) and course (progress, completed on), from notify's projections, with totals.
 * Null when there is nothing to report: no members, or nothing tracked (such a report is not sent).
 */
export async function buildGroupReport(em: EntityManager, group: string, items: TrackingItem[]): Promise<GroupReport | null> {
  const members = await ruleRepository.members(em, group)
  const exams = items.filter((i) => i.type === 'exam')
  const courses = items.filter((i) => i.type === 'course')
  if (members.length === 0 || items.length === 0) return null
  const ids = members.map((m) => m.id)
  const examRows = await learningFacts.examResults(
    em,
    ids,
    exams.map((e) => e.id),
  )
  const courseRows = await learningFacts.courseProgress(
    em,
    ids,
    courses.map((c) => c.id),
  )
  const examOf = new Map(examRows.map((r) => [`${r.userId}:${r.examId}`, r]))
  const courseOf = new Map(courseRows.map((r) => [`${r.userId}:${r.courseId}`, r]))
  const lines: MemberReport[] = members.map((member) => ({
    member,
    exams: exams.map((e) => {
      const r = examOf.get(`${member.id}:${e.id}`)
      return { examId: e.id, name: e.name, attempts: r?.attempts ?? 0, bestScore: r ? r.bestScore : null, passed: r?.passed ?? false }
    }),
    courses: courses.map((c) => {
      const r = courseOf.get(`${member.id}:${c.id}`)
      return { courseId: c.id, name: c.name, progress: r?.progress ?? 0, completedAt: r?.completedAt ? r.completedAt.toISOString() : null }
    }),
  }))
  return {
    group,
    members: lines,
    totals: {
      members: members.length,
      examsTracked: exams.length,
      coursesTracked: courses.length,
      examsPassed: lines.reduce((n, l) => n + l.exams.filter((e) => e.passed).length, 0),
      coursesCompleted: lines.reduce((n, l) => n + l.courses.filter((c) => c.completedAt).length, 0),
    },
  }
}
