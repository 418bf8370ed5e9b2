import { AuditTrailTable, UserProjectionTables, type MigrationEntry } from '@portal/server-kit'
import { ExamTables } from './0001-exam-tables.ts'
import { CourseTables } from './0002-course-tables.ts'
import { ScormSequencing } from './0003-scorm-sequencing.ts'
import { ScormStateFromCmi } from './0004-scorm-state-from-cmi.ts'
import { UserProjection } from './0005-user-projection.ts'
import { ScormAttemptsAndRevisions } from './0008-scorm-attempts-and-revisions.ts'
import { ScormEditor } from './0009-scorm-editor.ts'
import { OptionShuffle } from './0010-option-shuffle.ts'
import { ItemAnalysis } from './0011-item-analysis.ts'
import { QuestionLifecycle } from './0012-question-lifecycle.ts'
import { AssignmentRules } from './0013-assignment-rules.ts'
import { Retakes } from './0014-retakes.ts'
import { ScormEditable } from './0015-scorm-editable.ts'
import { Cmi5 } from './0016-cmi5.ts'
import { LrsForwarding } from './0017-lrs-forwarding.ts'
import { LrsStatementIndexes } from './0018-lrs-statement-indexes.ts'

/** Learning's migrations, in order (the kit prepends the outbox/inbox tables). */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_exam_tables', class: ExamTables },
  { name: '0002_course_tables', class: CourseTables },
  { name: '0003_scorm_sequencing', class: ScormSequencing },
  { name: '0004_scorm_state_from_cmi', class: ScormStateFromCmi },
  { name: '0005_user_projection', class: UserProjection },
  // The server kit's projection: manager scope, employee id, hire date, auth version, backfill requests.
  { name: '0006_user_projection_kit', class: UserProjectionTables },
  // The server kit's audit trail of admin changes (decision 0030).
  { name: '0007_audit_trail', class: AuditTrailTable },
  { name: '0008_scorm_attempts_and_revisions', class: ScormAttemptsAndRevisions },
  { name: '0009_scorm_editor', class: ScormEditor },
  { name: '0010_option_shuffle', class: OptionShuffle },
  // Item analysis's kept rows, filled as attempts are graded (issue 27).
  { name: '0011_item_analysis', class: ItemAnalysis },
  // Questions retired from the pool, and versions of answered questions (issue 27).
  { name: '0012_question_lifecycle', class: QuestionLifecycle },
  // Assignment rules with due dates, recurrence and reminders; each person's row announced by a trigger (issue 24).
  { name: '0013_assignment_rules', class: AssignmentRules },
  // Recurring training retaken: the exam attempts a new cycle counts, and the rows waiting for their next cycle (issue 24).
  { name: '0014_retakes', class: Retakes },
  // Whether a stored package holds a Captivate project (Edit SCORM offered), checked at ingest and for older packages in the background (issue 30).
  { name: '0015_scorm_editable', class: ScormEditable },
  // cmi5 registrations, sessions and AU statuses, and the learning record store's statements and documents (issue 26).
  { name: '0016_cmi5', class: Cmi5 },
  // The external learning record store statements are sent to, and the forwarder's last outcome (issue 26).
  { name: '0017_lrs_forwarding', class: LrsForwarding },
  // The statements' indexes cut to the one every LRS query reads, (registration, seq) (issue 26).
  { name: '0018_lrs_statement_indexes', class: LrsStatementIndexes },
]
