import type { MikroORM } from '@mikro-orm/postgresql'
import { todayIn } from '@portal/contracts'
import { createBackgroundTask, type Logger, type ServiceJob } from '@portal/server-kit'
import { type DeliveryRepository, deliveryId } from '../deliveries/index.ts'
import { renderEmail, trainingDueEmail, type TrainingDueRow } from '../mail/index.ts'
import { reminderRepository as repo, type DigestCandidate } from './reminder.repository.ts'

/** How the training-due digests go out. */
export interface DigestOptions {
  /** A recipient's digest waits until their newest pending reminder is this old (DIGEST_SETTLE_MS). */
  settleMs: number
  /** The company's time zone (COMPANY_TIME_ZONE): its date is the digest's day. */
  timeZone: string
  /** How often the sender looks for settled reminders; default half the settle time, from 200 ms to 30 s. */
  intervalMs?: number
  /** Recipients per pass (each its own transaction); a full pass runs again at once. */
  batchSize?: number
}

export const DEFAULT_DIGEST_SETTLE_MS = 60_000

/** The delivery's key: one digest per recipient address and day, whatever runs it (the deliveries' dedupe mechanism). */
export const digestKey = (recipient: string, day: string) => deliveryId(`assignment-digest:${recipient}:${day}`, recipient)

const ids = (rows: DigestCandidate[]) => rows.map((r) => r.id)

/** One row per assignment (rule, person, due date): the reminders of several stages of it in one digest say it once. */
function rowsOf(items: DigestCandidate[], portalUrl: string, role: 'own' | 'team'): TrainingDueRow[] {
  const rows = new Map<string, TrainingDueRow>()
  for (const i of items) {
    const key = `${i.rule_id}|${i.user_id}|${i.due_on}`
    if (rows.has(key)) continue
    rows.set(key, {
      title: i.item_title,
      kind: i.item_kind,
      dueOn: i.due_on,
      ...(role === 'team' ? { learner: { name: i.learner_name ?? 'A former member', url: `${portalUrl}/manager/technician/${i.user_id}` } } : {}),
    })
  }
  return [...rows.values()]
}

/**
 * The training-due digests (issue 24): several reminders for one recipient go in one e-mail, at
 * most one per recipient address and company day. A pass takes each recipient whose pending
 * reminders have settled (none newer than `settleMs`) and, in one transaction per recipient under a
 * transaction-scoped advisory lock on the address (another instance skips it): closes what no longer
 * goes (settled by a completion, exemption or removal, learner deleted: cancelled; a paused learner's
 * own reminders: paused), records the day's digest, marks the rest sent in it and queues ONE
 * delivery keyed `assignment-digest:{address}:{day}`, which the deliveries pipeline sends once
 * (decision 0043). Reminders arriving after that day's digest wait for the next day's.
 *
 * The completion window: a reminder cancelled (learning's `learning.assignment.changed.v1`
 * handled) before its digest's transaction locks it is left out. One completed after that, or
 * whose event notify has not handled yet, is in the mail: the window is the bus's delay plus the
 * time from the digest's commit to the SMTP server's reply, normally well under a second after the
 * settle time.
 */
export function createAssignmentDigests(deps: {
  orm: MikroORM
  deliveries: DeliveryRepository
  logger: Logger
  now: () => Date
  /** The portal's public address (links), without a trailing slash. */
  portalUrl: string
  options: DigestOptions
  /** Tells the delivery sender that mails were queued. */
  kick?: () => void
}) {
  const { orm, logger, options } = deps
  const batchSize = options.batchSize ?? 200

  /** One recipient's digest of `day`, if it is theirs to send now; resolves with whether one was queued. */
  async function digestFor(recipient: string, day: string, at: Date): Promise<boolean> {
    return orm.em.fork().transactional(async (em) => {
      if (!(await repo.lockDigest(em, recipient, day))) return false
      const { rows, settling } = await repo.pendingFor(em, recipient, at, options.settleMs)
      // A reminder arrived since the recipient was listed: the next pass takes them all together.
      if (rows.length === 0 || settling) return false
      const cancelled = rows.filter((r) => r.done || r.deleted)
      // A paused learner's own reminders are held; their managers' and operations' copies go (see the consumer).
      const paused = rows.filter((r) => !r.done && !r.deleted && r.paused && r.role === 'learner')
      const send = rows.filter((r) => !cancelled.includes(r) && !paused.includes(r))
      await repo.close(em, ids(cancelled), 'cancelled')
      await repo.close(em, ids(paused), 'paused')
      if (send.length === 0) return false
      const own = send.filter((r) => r.role === 'learner')
      const team = send.filter((r) => r.role !== 'learner')
      const mail = await renderEmail(
        trainingDueEmail({
          day,
          name: own[0]?.learner_name ?? null,
          own: rowsOf(own, deps.portalUrl, 'own'),
          team: rowsOf(team, deps.portalUrl, 'team'),
          dashboardUrl: `${deps.portalUrl}/user-dashboard`,
          teamDashboardUrl: `${deps.portalUrl}/manager/dashboard`,
        }),
      )
      const delivery = deps.deliveries.queue(em, { eventId: digestKey(recipient, day), kind: 'assignment-digest', to: recipient, ...mail })
      await repo.recordDigest(em, { recipient, day, deliveryId: delivery, ids: ids(send) })
      return true
    })
  }

  /** One pass: the digests of every recipient whose reminders settled, on the company's day at `at`. */
  async function run(at: Date = deps.now()): Promise<{ done: number; more: boolean }> {
    const day = todayIn(options.timeZone, at)
    const recipients = await repo.recipientsDue(orm.em.fork(), day, options.settleMs, batchSize)
    let queued = 0
    for (const recipient of recipients) if (await digestFor(recipient, day, at)) queued++
    if (queued > 0) {
      logger.info('training-due digests queued', { day, digests: queued })
      deps.kick?.()
    }
    // A full batch: more may be waiting (recipients skipped as settling come back after their settle time).
    return { done: queued, more: recipients.length === batchSize && queued > 0 }
  }

  return {
    /** Queues the digests due now (tests pass the moment); resolves with how many were queued. */
    runDue: async (at?: Date) => (await run(at)).done,
    /** The background sender: a pass every interval, and soon after reminders were recorded. */
    job(): ServiceJob & { kick(): void } {
      const intervalMs = options.intervalMs ?? Math.min(30_000, Math.max(200, Math.floor(options.settleMs / 2)))
      const task = createBackgroundTask({ name: 'training-due digests', logger, intervalMs, pass: () => run() })
      return { start: task.start, stop: task.stop, kick: task.kick }
    },
  }
}
export type AssignmentDigests = ReturnType<typeof createAssignmentDigests>
