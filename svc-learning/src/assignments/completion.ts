import type { EntityManager } from '@mikro-orm/postgresql'
import { nextCycle, todayIn, type AssignmentItemKind } from '@portal/contracts'
import { assignmentRepository as repo } from './assignment.repository.ts'

/** A completion of a course (every module) or a pass of an exam, as its transaction records it. */
export interface ItemCompletion {
  userId: string
  kind: AssignmentItemKind
  itemId: number
  at: Date
  /** The company's time zone: the completion's calendar day there is the day that counts. */
  timeZone: string
}

/**
 * Records what a completion does to the person's assignments, in the completion's own transaction
 * (issue 24): every live row of theirs for the item whose cycle is open is completed (on time while
 * the day is on or before its due date), kept in `assignment_completions`, and a recurring rule gets
 * its next cycle (`nextCycle`; a certification recurrence waits for certs to report the renewed
 * expiry). A row completed before whose next cycle has opened moves on to it first. A cycle not open
 * yet (before its window) is not completed early. Rows are locked, so an edit of the rule or another
 * completion waits; the item's shared lock makes a save adding people wait for it, and it for them.
 */
export async function recordItemCompletion(em: EntityManager, c: ItemCompletion): Promise<number> {
  await repo.lockItem(em, c.kind, c.itemId, 'shared')
  const rows = await repo.rowsToComplete(em, c.userId, c.kind, c.itemId)
  const completedOn = todayIn(c.timeZone, c.at)
  let completed = 0
  for (const r of rows) {
    let cycle = r.cycle
    let dueOn = r.due_on
    let opensOn = r.opens_on
    if (r.completed_on !== null) {
      // Completed already: only a next cycle whose window has opened asks for this completion.
      if (r.next_due_on === null || (r.next_opens_on !== null && completedOn < r.next_opens_on)) continue
      cycle += 1
      dueOn = r.next_due_on
      opensOn = r.next_opens_on
    } else if (opensOn !== null && completedOn < opensOn) continue
    // A certification recurrence follows a renewed expiry: one later than this cycle's (its due date) and the completion.
    const renewal = r.cert_expires_on !== null && r.cert_expires_on > completedOn && r.cert_expires_on > dueOn ? r.cert_expires_on : null
    await repo.complete(em, { ruleId: r.rule_id, userId: c.userId, cycle, dueOn, opensOn, completedOn, at: c.at, next: nextCycle(r.recurrence, completedOn, renewal) })
    completed++
  }
  return completed
}

/** The rules of a course or exam being deleted go with it, in its transaction: soft-deleted, their people no longer assigned. */
export const deleteRulesOfItem = (em: EntityManager, kind: AssignmentItemKind, itemId: number, at: Date) => repo.deleteRulesOfItem(em, kind, itemId, at)
