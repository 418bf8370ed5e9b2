import type { EntityManager } from '@mikro-orm/postgresql'
import { firstCycle, nextCycle } from '@portal/contracts'
import { certificationExpiryRepository as repo, type CertificationFact } from './certification-expiry.repository.ts'

/** What following one certification event did. */
export interface FollowResult {
  /** False when the event was older than what the projection holds (it changed nothing). */
  recorded: boolean
  /** People's rows whose dates moved. */
  moved: number
}

/**
 * Follows one of certs' certification events (issue 24 "a recurring assignment can follow a
 * certification's expiry"), in the caller's transaction: the projection keeps the newest fact of
 * each certification, and when the person's latest expiry of a type changes, their rows of live
 * rules recurring ahead of that type's expiry move with it:
 * - a current cycle still outstanding is due on the new expiry and opens `days_before` ahead
 *   (`firstCycle`: not before the assignment day);
 * - a completed current cycle gets its next cycle from the new expiry when that is later than the
 *   completion (`nextCycle`); an expiry not later than the completion moves nothing.
 * A type with no expiry left (the certification deleted, or lifetime) moves nothing: there is no
 * date to follow. Plain UPDATEs: migration 0013's trigger announces each change.
 */
export async function followCertification(em: EntityManager, fact: CertificationFact): Promise<FollowResult> {
  await repo.lockUser(em, fact.userId)
  const heldAs = await repo.typeOf(em, fact.certificationId)
  const types = [...new Set([fact.certificationTypeId, ...(heldAs === null ? [] : [heldAs])])]
  const before = await repo.latestExpiries(em, fact.userId, types)
  if (!(await repo.record(em, fact))) return { recorded: false, moved: 0 }
  const after = await repo.latestExpiries(em, fact.userId, types)
  let moved = 0
  for (const type of types) {
    const expiry = after.get(type)
    if (expiry === undefined || expiry === before.get(type)) continue
    for (const row of await repo.following(em, fact.userId, type)) {
      if (row.completed_on === null) {
        const cycle = firstCycle(row.due, row.recurrence, { assigned_on: row.assigned_on, hire_date: null, certification_expires_on: expiry })
        if (cycle.due_on === row.due_on && cycle.opens_on === row.opens_on) continue
        await repo.moveCurrent(em, row.rule_id, fact.userId, cycle.due_on, cycle.opens_on)
        moved++
      } else {
        const next = nextCycle(row.recurrence, row.completed_on, expiry)
        if (next === null || (next.next_due_on === row.next_due_on && next.next_opens_on === row.next_opens_on)) continue
        await repo.moveNext(em, row.rule_id, fact.userId, next.next_due_on, next.next_opens_on)
        moved++
      }
    }
  }
  return { recorded: true, moved }
}
