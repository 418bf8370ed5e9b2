import type { EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import {
  ASSIGNMENT_LIMITS,
  ASSIGNMENT_MESSAGES as M,
  ASSIGNMENT_STATE_LABELS,
  type AssignmentPreview,
  type AssignmentPreviewInput,
  type AssignmentReport,
  type AssignmentReportQuery,
  type AssignmentRule,
  type AssignmentRuleData,
  type AssignmentRuleDeleted,
  type AssignmentRuleListQuery,
  type AssignmentRuleSaved,
  type AssignmentStateCounts,
  type ExemptionResult,
  type MyAssignments,
} from '@portal/contracts'
import { badRequest, notFound, streamWorkbook, type Actor, type WorkbookDownload } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { assignmentRepository as repo, myAssignmentsQuery, toPersonRow, zeroCounts, type ItemRow, type RuleRow } from './assignment.repository.ts'
import { audienceLabel } from './audience.ts'
import { applyPlan, certificationTypeOf } from './materialize.ts'
import { toPersonAssignment, toReportRow } from './person-assignment.ts'
import { planRule, previewOf, type Plan } from './planning.ts'

type RuleData = AssignmentRuleData
type PreviewData = z.output<typeof AssignmentPreviewInput>
type ReportFilter = z.output<typeof AssignmentReportQuery>
type ListFilter = z.output<typeof AssignmentRuleListQuery>

export const ruleNotFound = () => notFound(M.ruleNotFound, 'assignment_rule_not_found')
const itemNotFound = (kind: RuleData['item_kind']) => (kind === 'course' ? notFound(M.courseNotFound, 'course_not_found') : notFound(M.examNotFound, 'exam_not_found'))
/** 400 naming the field, as the schemas' refusals do. */
const invalid = (path: string, message: string, code = 'validation_failed') => badRequest(message, code, { details: [{ path, message }] })

/** The rule's own facts, as the contracts name them. */
const dataOf = (r: RuleRow): RuleData => ({
  item_kind: r.item_kind,
  item_id: r.item_id,
  audience: r.audience,
  due: r.due,
  recurrence: r.recurrence,
  due_soon_days: r.due_soon_days,
  reminders: r.reminders,
})

const toRule = (r: RuleRow, counts: AssignmentStateCounts): AssignmentRule => ({
  ...dataOf(r),
  id: r.id,
  item_title: r.item_title,
  audience_label: audienceLabel(r.audience),
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  people: Object.values(counts).reduce((a, b) => a + b, 0),
  counts,
})

const slug = (s: string) =>
  s
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase() || 'item'

/**
 * Training that is due (issue 24): admins' assignment rules with their dry run, reports and
 * exemptions, and each learner's own list. The routes gate who calls (admins, or any signed-in user
 * for their own list); the rules of dates and states are the contracts' (`assignment-rules.ts`) and
 * their SQL twin.
 */
export function createAssignmentService(ctx: LearningContext) {
  const { orm, logger, now, today, timeZone } = ctx
  const mine = myAssignmentsQuery(orm)

  /**
   * The refusals of a rule the schema cannot judge, before anything is stored: the item (404), a
   * due date already past (a new one, or one changed), a group nobody knows, users who are not
   * existing learners; an edit keeps its item. Resolves with the item, share-locked.
   */
  async function requireValid(em: EntityManager, data: RuleData, current: RuleRow | null): Promise<ItemRow> {
    if (current && (current.item_kind !== data.item_kind || current.item_id !== data.item_id)) throw invalid('item_id', M.itemFixed)
    const item = await repo.item(em, data.item_kind, data.item_id)
    if (!item) throw itemNotFound(data.item_kind)
    const unchangedDate = current?.due.kind === 'absolute' && data.due.kind === 'absolute' && current.due.date === data.due.date
    if (data.due.kind === 'absolute' && !unchangedDate && data.due.date < today()) throw invalid('due.date', M.dueBeforeAssignment, 'due_before_assignment')
    if (data.audience.kind === 'group' && !(await repo.groupExists(em, data.audience.group))) throw invalid('audience.group', M.groupNotFound, 'group_not_found')
    if (data.audience.kind === 'users') {
      const known = await repo.assignableUsers(em, data.audience.user_ids)
      if (data.audience.user_ids.some((id) => !known.has(id))) throw invalid('audience.user_ids', M.userNotFound, 'user_not_found')
    }
    return item
  }

  /** The plan of saving `data` as rule `ruleId` (null: a new rule); its rows row-locked with `lock`. */
  async function planOf(em: EntityManager, data: RuleData, ruleId: number | null, lock: boolean): Promise<Plan> {
    const [candidates, stored] = await Promise.all([
      repo.candidates(em, data.audience, { kind: data.item_kind, id: data.item_id }, certificationTypeOf(data.recurrence), timeZone),
      ruleId === null ? Promise.resolve([]) : repo.stored(em, ruleId, lock),
    ])
    return planRule({ due: data.due, recurrence: data.recurrence }, candidates, stored, today())
  }

  /** Creates a rule in `tx` and assigns its people (the refusals first). */
  async function createIn(tx: EntityManager, createdBy: string | null, data: RuleData) {
    await repo.lockAudiences(tx, 'exclusive')
    const item = await requireValid(tx, data, null)
    const at = now()
    const id = await repo.insertRule(tx, data, createdBy, at)
    await repo.lockItem(tx, data.item_kind, data.item_id, 'exclusive')
    const plan = await planOf(tx, data, null, false)
    await applyPlan(tx, id, { kind: data.item_kind, id: data.item_id, ...item }, plan, at)
    return { id, changes: changesOf(plan) }
  }

  async function ruleWithCounts(em: EntityManager, id: number): Promise<AssignmentRule> {
    const rule = await repo.rule(em, id)
    if (!rule) throw ruleNotFound()
    const counts = await repo.countsByRule(em, [id], today())
    return toRule(rule, counts.get(id)!)
  }

  const changesOf = (p: Plan) => {
    const { total, added, removed, due_changed, unchanged } = previewOf(p, 0)
    return { total, added, removed, due_changed, unchanged }
  }

  async function report(id: number, q: ReportFilter, paged: boolean) {
    const em = orm.em.fork()
    const rule = await ruleWithCounts(em, id)
    const day = today()
    const r = await repo.report(em, id, day, q, paged ? { limit: q.limit, offset: q.offset } : null)
    return { rule, today: day, counts: r.counts, total: r.total, rows: r.rows.map((row) => toReportRow(row, day)) }
  }

  /** Sets or lifts an exemption of a person the rule assigns (404 otherwise), under the row's lock. */
  async function exemption(actor: Actor, id: number, userId: string, reason: string | null): Promise<ExemptionResult> {
    return orm.em.fork().transactional(async (tx) => {
      const rule = await repo.rule(tx, id)
      if (!rule) throw ruleNotFound()
      const day = today()
      const row = await repo.personRow(tx, id, userId, day)
      if (!row) throw notFound(M.notAssigned, 'not_assigned')
      if (row.exempt_reason !== reason) await repo.setExemption(tx, id, userId, reason, actor.userId, now())
      const after = (await repo.personRow(tx, id, userId, day))!
      return { message: reason === null ? M.exemptionLifted : M.exempted, item_title: rule.item_title, assignment: toReportRow(after, day) }
    })
  }

  return {
    /** The live rules, newest first, with their people by state today. */
    async list(f: ListFilter): Promise<AssignmentRule[]> {
      const em = orm.em.fork()
      const rules = await repo.rules(em, f)
      const counts = await repo.countsByRule(
        em,
        rules.map((r) => r.id),
        today(),
      )
      return rules.map((r) => toRule(r, counts.get(r.id) ?? zeroCounts()))
    },

    get: (id: number) => ruleWithCounts(orm.em.fork(), id),

    /** The dry run: what saving the rule would change, computed as the save computes it; stores nothing. */
    async preview(input: PreviewData): Promise<AssignmentPreview> {
      return orm.em.fork().transactional(async (tx) => {
        const current = input.rule_id === undefined ? null : await repo.rule(tx, input.rule_id)
        if (input.rule_id !== undefined && !current) throw ruleNotFound()
        await requireValid(tx, input, current)
        return previewOf(await planOf(tx, input, current?.id ?? null, false), ASSIGNMENT_LIMITS.previewListLimit)
      })
    },

    /** Creates the rule and assigns its people at once (201). */
    async create(actor: Actor, data: RuleData): Promise<AssignmentRuleSaved> {
      const { id, changes } = await orm.em.fork().transactional((tx) => createIn(tx, actor.userId, data))
      return { ...(await ruleWithCounts(orm.em.fork(), id)), message: M.saved, changes }
    },

    /**
     * The demo's rules (first start only): made as an admin's would be, in one transaction that
     * first checks no rule was ever made (several instances starting at once make them once).
     * Resolves with how many were made.
     */
    async seed(rules: RuleData[]): Promise<number> {
      return orm.em.fork().transactional(async (tx) => {
        await repo.lockAudiences(tx, 'exclusive')
        if (await repo.anyRuleEver(tx)) return 0
        for (const data of rules) await createIn(tx, null, data)
        return rules.length
      })
    },

    /**
     * Saves an edit in one transaction: the rule and its rows locked, the plan computed over them as
     * the dry run does, then applied. Completions are never written here: a completion committed
     * before is in the rows read; one arriving meanwhile waits for the locks and then completes the
     * row as saved.
     */
    async update(id: number, data: RuleData): Promise<AssignmentRuleSaved> {
      const changes = await orm.em.fork().transactional(async (tx) => {
        await repo.lockAudiences(tx, 'exclusive')
        const current = await repo.rule(tx, id, true)
        if (!current) throw ruleNotFound()
        const item = await requireValid(tx, data, current)
        await repo.lockItem(tx, data.item_kind, data.item_id, 'exclusive')
        const plan = await planOf(tx, data, id, true)
        const at = now()
        // The rule first: each row's announcement reads the rule's facts as saved.
        await repo.updateRule(tx, id, data, at)
        await applyPlan(tx, id, { kind: data.item_kind, id: data.item_id, ...item }, plan, at)
        // What every row's announcement carries of the rule changed: announce them all again.
        if (current.due_soon_days !== data.due_soon_days || (current.recurrence === null) !== (data.recurrence === null)) await repo.touch(tx, id, at)
        return changesOf(plan)
      })
      return { ...(await ruleWithCounts(orm.em.fork(), id)), message: M.saved, changes }
    },

    /** Deletes the rule (kept, marked deleted): nobody is assigned by it any more; completions stay. */
    async remove(id: number): Promise<AssignmentRuleDeleted> {
      return orm.em.fork().transactional(async (tx) => {
        await repo.lockAudiences(tx, 'exclusive')
        const current = await repo.rule(tx, id, true)
        if (!current) throw ruleNotFound()
        const removed = await repo.deleteRule(tx, id, now())
        return { message: M.deleted, id, item_title: current.item_title, audience_label: audienceLabel(current.audience), removed }
      })
    },

    /** Who is done, open, overdue, ... on the rule, filtered and paged. */
    report: (id: number, q: ReportFilter): Promise<AssignmentReport> => report(id, q, true),

    /** The report's people (every page, same filters) as an .xlsx. */
    async exportWorkbook(id: number, q: ReportFilter): Promise<WorkbookDownload> {
      const r = await report(id, q, false)
      const body = streamWorkbook(logger, 'assignment report export', async (addSheet) => {
        const sheet = addSheet('Assignment', [
          { header: 'Name', key: 'name', width: 28 },
          { header: 'Email', key: 'email', width: 32 },
          { header: 'Branch', key: 'branch', width: 14 },
          { header: 'Department', key: 'department', width: 16 },
          { header: 'State', key: 'state', width: 18 },
          { header: 'Assigned on', key: 'assigned_on', width: 12 },
          { header: 'Due on', key: 'due_on', width: 12 },
          { header: 'Days left', key: 'days_left', width: 10 },
          { header: 'Completed on', key: 'completed_on', width: 13 },
          { header: 'Next due on', key: 'next_due_on', width: 12 },
          { header: 'Exempt reason', key: 'exempt_reason', width: 40 },
        ])
        for (const row of r.rows)
          await sheet.add({
            name: row.name,
            email: row.email,
            branch: row.branch ?? '',
            department: row.department ?? '',
            state: ASSIGNMENT_STATE_LABELS[row.state],
            assigned_on: row.assigned_on,
            due_on: row.due_on,
            days_left: row.days_left,
            completed_on: row.completed_on ?? '',
            next_due_on: row.next_due_on ?? '',
            exempt_reason: row.exempt_reason ?? '',
          })
        await sheet.done()
      })
      return { filename: `assignment-report-${slug(r.rule.item_title)}-${r.today}.xlsx`, body }
    },

    /** Marks one person exempt, with why (the audit trail keeps it). */
    exempt: (actor: Actor, id: number, input: { user_id: string; reason: string }) => exemption(actor, id, input.user_id, input.reason),

    /** Lifts a person's exemption. */
    liftExemption: (actor: Actor, id: number, userId: string) => exemption(actor, id, userId, null),

    /** The caller's own assignments on the company's today: overdue, due soon, open, not due yet, then completed. */
    async mine(actor: Actor): Promise<MyAssignments> {
      const day = today()
      const rows = await mine([actor.userId, day])
      return { today: day, assignments: rows.map((r) => toPersonAssignment(toPersonRow(r), day)) }
    },
  }
}
export type AssignmentService = ReturnType<typeof createAssignmentService>
