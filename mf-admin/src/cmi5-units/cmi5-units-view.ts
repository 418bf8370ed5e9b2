import { Cmi5WaiveReason, type Cmi5AuStatus, type Course, type CourseModule } from '@portal/contracts'

/**
 * What an admin reads of a learner's AU, in the learner viewer's words (mf-learner's
 * courses/cmi5.ts auStatusLabels: another remote, not shared through a package, so the same small
 * rule is kept here): Waived alone; else what it reached (Completed, then Passed or Failed); else
 * Satisfied (moveOn NotApplicable); else In progress once launched, or Not started.
 */
export type Cmi5AuLabel = 'Not started' | 'In progress' | 'Completed' | 'Passed' | 'Failed' | 'Satisfied' | 'Waived'

export function auStatusLabels(au: Cmi5AuStatus): Cmi5AuLabel[] {
  if (au.waived) return ['Waived']
  const out: Cmi5AuLabel[] = []
  if (au.completed) out.push('Completed')
  if (au.passed) out.push('Passed')
  else if (au.failed) out.push('Failed')
  if (out.length > 0) return out
  if (au.satisfied) return ['Satisfied']
  return [au.launched ? 'In progress' : 'Not started']
}

/** The status cell: the labels, and the score of the last Passed/Failed ("Passed · Score 80%"). */
export function auStatusText(au: Cmi5AuStatus): string {
  const labels = auStatusLabels(au).join(', ')
  return au.score === null || au.waived || !Number.isFinite(au.score) ? labels : `${labels} · Score ${Math.round(au.score * 100)}%`
}

/** An AU may be waived while its moveOn is not met (a waived AU is satisfied; the server refuses a second waiver). */
export const isWaivable = (au: Cmi5AuStatus): boolean => !au.satisfied && !au.waived

/** The reasons of cmi5 §9.5.4.3, as the Reason select offers them. */
export const WAIVE_REASON_OPTIONS = Cmi5WaiveReason.options.map((value) => ({ value, label: value }))

/** A cmi5 module of a course assigned to the learner: the ones whose units an admin may read and waive. */
export interface LearnerCmi5Module {
  course: Pick<Course, 'id' | 'title'>
  module: CourseModule
}

/**
 * The learner's cmi5 modules, course by course in the list's order: courses assigned to everyone
 * or to them (the server's rule for a waiver), modules whose package is ready (a cmi5 package
 * still processing or refused has no units to read).
 */
export function learnerCmi5Modules(courses: readonly Course[], userId: string): LearnerCmi5Module[] {
  return courses
    .filter((c) => c.is_assigned_to_all || c.assigned_user_ids.includes(userId))
    .flatMap((c) =>
      [...c.modules]
        .sort((a, b) => a.order - b.order)
        .filter((m) => m.scorm_version === 'cmi5' && m.processing_status === 'ready')
        .map((module) => ({ course: { id: c.id, title: c.title }, module })),
    )
}
