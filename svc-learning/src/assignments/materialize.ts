import type { EntityManager } from '@mikro-orm/postgresql'
import type { AssignmentItemKind, AssignmentRecurrence } from '@portal/contracts'
import { recordEvent } from '@portal/server-kit'
import { assignmentRepository as repo, type ItemRow, type RuleRow } from './assignment.repository.ts'
import { audienceMatches } from './audience.ts'
import { planRule, type Plan, type RuleSpec } from './planning.ts'

/** What writing a plan needs of the service: the company's time zone and day, and the clock. */
export interface Calendar {
  timeZone: string
  today: () => string
  now: () => Date
}

export const certificationTypeOf = (r: AssignmentRecurrence) => (r?.kind === 'certification' ? r.certification_type_id : null)

/**
 * Writes a plan of rule `ruleId` (caller holds the locks): people added or back with their dates
 * and any completion from before, dates moved, people removed; and gives the people added access to
 * the item as POST /courses/{id}/assign does (a row each; for a course, `learning.course.assigned.v1`
 * naming those newly given it). Access stays with people removed (their progress is theirs).
 */
export async function applyPlan(em: EntityManager, ruleId: number, item: { kind: AssignmentItemKind; id: number } & ItemRow, plan: Plan, at: Date): Promise<void> {
  await repo.arrive(em, ruleId, plan.arrivals, at)
  await repo.move(em, ruleId, plan.moves, at)
  await repo.remove(em, ruleId, plan.removals, at)
  if (item.assigned_to_all || plan.arrivals.length === 0) return
  const given = await repo.grantAccess(
    em,
    item.kind,
    item.id,
    plan.arrivals.map((a) => a.user_id),
    at,
  )
  if (item.kind === 'course' && given.length > 0)
    recordEvent(em, 'learning.course.assigned.v1', { courseId: item.id, courseTitle: item.title, userIds: given, assignedToAll: false })
}

const specOf = (r: Pick<RuleRow, 'due' | 'recurrence'>): RuleSpec => ({ due: r.due, recurrence: r.recurrence })

/**
 * Judges one user, just registered or changed (identity's events), against every live rule, in the
 * projection's transaction: a rule whose audience now takes them adds them (or moves an outstanding
 * first cycle whose hire date changed); a rule that no longer does removes them unless their
 * completion of a one-off rule is the record (a recurring rule would ask them again). Each item's
 * rules under its lock, items in one order.
 */
export async function applyRulesToUser(em: EntityManager, userId: string, cal: Calendar): Promise<void> {
  await repo.lockAudiences(em, 'shared')
  const user = await repo.audienceUser(em, userId)
  const [rules, assigned] = await Promise.all([repo.liveRules(em), repo.liveRulesOfUser(em, userId)])
  const today = cal.today()
  const at = cal.now()
  let lockedItem = ''
  for (const rule of rules) {
    const matches = user !== null && audienceMatches(rule.audience, user)
    // Nothing to judge: not taken and no live row to leave (most rules, for most users).
    if (!matches && !assigned.has(rule.id)) continue
    const key = `${rule.item_kind}:${rule.item_id}`
    if (key !== lockedItem) {
      await repo.lockItem(em, rule.item_kind, rule.item_id, 'exclusive')
      lockedItem = key
    }
    // The row again, locked (after the item's lock, as completions take them).
    const [row] = await repo.stored(em, rule.id, true, userId)
    if (matches) {
      const candidates = await repo.candidates(
        em,
        { kind: 'users', user_ids: [userId] },
        { kind: rule.item_kind, id: rule.item_id },
        certificationTypeOf(rule.recurrence),
        cal.timeZone,
      )
      if (candidates.length === 0) continue
      const plan = planRule(specOf(rule), candidates, row ? [row] : [], today)
      if (plan.arrivals.length === 0 && plan.moves.length === 0) continue
      const item = await repo.item(em, rule.item_kind, rule.item_id)
      if (item) await applyPlan(em, rule.id, { kind: rule.item_kind, id: rule.item_id, ...item }, plan, at)
    } else if (row && !row.removed && (row.completed_on === null || rule.recurrence !== null)) {
      await repo.remove(em, rule.id, [userId], at)
    }
  }
}

/** A deleted user is no longer assigned anything (their completions stay), after any rule save under way. */
export async function removeDeletedUser(em: EntityManager, userId: string, at: Date): Promise<void> {
  await repo.lockAudiences(em, 'shared')
  await repo.removeUser(em, userId, at)
}

/**
 * Who a live assignment rule gives the course or exam: an admin's manual assignment (the spec's
 * `userIds` replace the list) keeps them, and so does the item no longer being assigned to
 * everyone. The caller holds the item's row `for update`, so a rule save or a user joining (which
 * share-lock that row before giving access) either committed before and is seen here, or gives
 * access itself after.
 */
export const usersKeptByRules = (em: EntityManager, kind: AssignmentItemKind, itemId: number) => repo.holders(em, kind, itemId)

/**
 * The item is no longer assigned to everyone: the people its live rules assign keep access through
 * a row each (as a rule gives it; they had it already, so nothing is announced). Caller holds the
 * item's row `for update`. Resolves with those given a row.
 */
export async function keepAccessOfRules(em: EntityManager, kind: AssignmentItemKind, itemId: number, at: Date): Promise<string[]> {
  return repo.grantAccess(em, kind, itemId, await repo.holders(em, kind, itemId), at)
}
