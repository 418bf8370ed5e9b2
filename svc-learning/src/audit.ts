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
  // An assignment rule's answers (issue 24): its item and audience, and an exemption's person and reason.
  item_title: z.string().optional().catch(undefined),
  audience_label: z.string().optional().catch(undefined),
  assignment: z
    .object({ user_id: z.string().optional().catch(undefined), name: z.string().optional().catch(undefined), exempt_reason: z.string().nullable().optional().catch(undefined) })
    .optional()
    .catch(undefined),
})
type Answer = z.infer<typeof LearningAuditAnswer>

const name =
  (kind: string): AuditedRoute<Answer>['target'] =>
  (m, b) =>
    b?.name ?? b?.title ?? `${kind} ${m[1] ?? ''}`.trim()
const assigned = (b: Answer | null) => (b && typeof b === 'object' ? Object.fromEntries(Object.entries(b).filter(([k]) => /assign|count|user/i.test(k))) : {})

/** An assignment rule named by its item and audience ("Annual Safety Refresher (Group: Field East)"). */
const rule: AuditedRoute<Answer>['target'] = (m, b) => (b?.item_title !== undefined ? `${b.item_title} (${b.audience_label ?? ''})` : `assignment rule ${m[1] ?? ''}`.trim())
const ruleFacts = (b: Answer | null) => ({ item_kind: b?.item_kind, item_id: b?.item_id, audience: b?.audience, due: b?.due, recurrence: b?.recurrence, changes: b?.changes })
/** An exemption named by the person and the rule's item. */
const exemption: AuditedRoute<Answer>['target'] = (m, b) => `${b?.assignment?.name ?? m[2] ?? ''}: ${b?.item_title ?? `assignment rule ${m[1]}`}`

/** Learning's admin changes in the audit trail (decision 0030): exams, courses, SCORM edits and assignment rules. */
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
  // Assignment rules (issue 24): what a save changed, and an exemption with its reason.
  { method: 'POST', path: /^\/admin\/assignment-rules\/?$/, action: 'assignment_rule.created', target: rule, details: ruleFacts },
  { method: 'PUT', path: /^\/admin\/assignment-rules\/(\d+)$/, action: 'assignment_rule.updated', target: rule, details: ruleFacts },
  { method: 'DELETE', path: /^\/admin\/assignment-rules\/(\d+)$/, action: 'assignment_rule.deleted', target: rule, details: (b) => ({ removed: b?.removed }) },
  {
    method: 'POST',
    path: /^\/admin\/assignment-rules\/(\d+)\/exemptions$/,
    action: 'assignment.exempted',
    target: exemption,
    details: (b) => ({ user_id: b?.assignment?.user_id, reason: b?.assignment?.exempt_reason }),
  },
  {
    method: 'DELETE',
    path: /^\/admin\/assignment-rules\/(\d+)\/exemptions\/([0-9a-f-]+)$/,
    action: 'assignment.exemption_lifted',
    target: exemption,
    details: (b) => ({ user_id: b?.assignment?.user_id }),
  },
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
  // Statements out (issue 26): the external LRS's settings as saved (never a password: the answer has none).
  {
    method: 'PUT',
    path: /^\/admin\/lrs-forwarding\/?$/,
    action: 'lrs_forwarding.updated',
    target: () => 'Learning Record Store',
    details: (b) => {
      const s = (b ?? {}) as Record<string, unknown>
      return { endpoint: s.endpoint, username: s.username, has_password: s.has_password, enabled: s.enabled }
    },
  },
]
