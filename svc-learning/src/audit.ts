import type { AuditedRoute } from '@portal/server-kit'
import { z } from 'zod'

/** What the audit reads of learning's answers: a name or title, the SCORM editor's outcome, and (kept whole) an assignment's counts. */
export const LearningAuditAnswer = z.looseObject({
  name: z.string().optional().catch(undefined),
  title: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  backupId: z.unknown().optional(),
  changes: z.unknown().optional(),
  restoredFrom: z
    .object({ backup_name: z.string().optional().catch(undefined), id: z.unknown().optional() })
    .optional()
    .catch(undefined),
})
type Answer = z.infer<typeof LearningAuditAnswer>

const name =
  (kind: string): AuditedRoute<Answer>['target'] =>
  (m, b) =>
    b?.name ?? b?.title ?? `${kind} ${m[1] ?? ''}`.trim()
const assigned = (b: Answer | null) => (b && typeof b === 'object' ? Object.fromEntries(Object.entries(b).filter(([k]) => /assign|count|user/i.test(k))) : {})

/** Learning's admin changes in the audit trail (decision 0030): exams, courses and SCORM edits. */
export const LEARNING_AUDITED: readonly AuditedRoute<Answer>[] = [
  { method: 'POST', path: /^\/exams\/?$/, action: 'exam.created', target: name('exam') },
  { method: 'PUT', path: /^\/exams\/(\d+)$/, action: 'exam.updated', target: name('exam') },
  { method: 'DELETE', path: /^\/exams\/(\d+)$/, action: 'exam.deleted', target: (m) => `exam ${m[1]}` },
  { method: 'POST', path: /^\/exams\/(\d+)\/assign$/, action: 'exam.assigned', target: (m) => `exam ${m[1]}`, details: assigned },
  // A question retired from an exam's pool or put back (issue 27): named by its exam's name from the answer.
  {
    method: 'POST',
    path: /^\/admin\/exams\/(\d+)\/questions\/(\d+)\/retire$/,
    action: 'exam.question_retired',
    target: (m, b) => `question ${m[2]} of ${b?.name ?? `exam ${m[1]}`}`,
  },
  {
    method: 'POST',
    path: /^\/admin\/exams\/(\d+)\/questions\/(\d+)\/restore$/,
    action: 'exam.question_restored',
    target: (m, b) => `question ${m[2]} of ${b?.name ?? `exam ${m[1]}`}`,
  },
  { method: 'POST', path: /^\/courses\/?$/, action: 'course.created', target: name('course') },
  { method: 'PUT', path: /^\/courses\/(\d+)$/, action: 'course.updated', target: name('course') },
  { method: 'DELETE', path: /^\/courses\/(\d+)$/, action: 'course.deleted', target: (m) => `course ${m[1]}` },
  { method: 'POST', path: /^\/courses\/(\d+)\/assign$/, action: 'course.assigned', target: (m) => `course ${m[1]}`, details: assigned },
  {
    method: 'POST',
    path: /^\/scorm-editor\/edit-timing$/,
    action: 'scorm.timing_edited',
    target: (_m, b) => b?.message ?? 'SCORM timing',
    details: (b) => ({ backupId: b?.backupId, changes: b?.changes }),
  },
  {
    method: 'POST',
    path: /^\/scorm-editor\/restore$/,
    action: 'scorm.restored',
    target: (_m, b) => b?.restoredFrom?.backup_name ?? 'SCORM backup',
    details: (b) => ({ backupId: b?.restoredFrom?.id }),
  },
]
