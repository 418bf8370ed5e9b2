import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventData, type EventEnvelope } from '@portal/contracts'
import { handleOnce, projectedUsers, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { orgRepository, recipientsFor, reminderRepository, type ReminderInput } from '../assignment-reminders/index.ts'

/** Durable consumer name of notify's assignment reminders (and its inbox key). */
export const ASSIGNMENTS_CONSUMER = 'notify-assignments'

export const ASSIGNMENT_SUBJECTS = ['learning.assignment.due-soon.v1', 'learning.assignment.overdue.v1', 'learning.assignment.changed.v1'] as const

/** How long a reminder for a learner notify's projection does not know yet is retried (identity's event may lag learning's). */
export const UNKNOWN_LEARNER_RETRY_MS = 60 * 60_000

type Reminder = EventData<'learning.assignment.due-soon.v1'> | EventData<'learning.assignment.overdue.v1'>

function parse(event: EventEnvelope): { kind: 'reminder'; data: Reminder } | { kind: 'changed'; data: EventData<'learning.assignment.changed.v1'> } | null | undefined {
  switch (event.type) {
    case 'learning.assignment.due-soon.v1':
    case 'learning.assignment.overdue.v1': {
      const parsed = Events[event.type].safeParse(event.data)
      return parsed.success ? { kind: 'reminder', data: parsed.data } : null
    }
    case 'learning.assignment.changed.v1': {
      const parsed = Events['learning.assignment.changed.v1'].safeParse(event.data)
      return parsed.success ? { kind: 'changed', data: parsed.data } : null
    }
    default:
      return undefined
  }
}

/**
 * Turns learning's reminder steps into reminders waiting for their recipients' digests, and stops
 * them when the assignment is done. Each event once (the inbox of `ASSIGNMENTS_CONSUMER`), and each
 * reminder once per rule, person, due date, stage and recipient address (a unique key), so a
 * redelivered event or one raised twice adds nothing.
 *
 * - `due-soon` (`before`, `due`) and `overdue` (`overdue`) go to the learner; `manager` to each
 *   manager whose scope covers them, else their branch configuration's manager address;
 *   `operations` to that configuration's operations address (`recipientsFor`).
 * - A learner whose notifications are paused (svc-certs' pause, until a later moment): their own
 *   reminders are recorded as paused and never sent. Their managers' and operations' copies still
 *   go, as svc-certs' certification expiry escalation does for paused technicians: a pause silences
 *   reminders to the person, not compliance escalation about them.
 * - `changed`: the newest facts (by `version`) are kept; a completion for a due date cancels that
 *   date's pending reminders of the person and rule at once, an exemption or removal all of them,
 *   and a moved due date those of the old one. A reminder arriving for an assignment already
 *   settled so is recorded as cancelled.
 */
export function createAssignmentsHandler(deps: { orm: MikroORM; logger: Logger; now: () => Date }) {
  const { orm, logger } = deps
  return async (event: EventEnvelope): Promise<void> => {
    const fact = parse(event)
    if (fact === undefined) return
    if (fact === null) {
      logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    if (fact.kind === 'changed') {
      const f = fact.data
      let cancelled = 0
      await handleOnce(orm, ASSIGNMENTS_CONSUMER, event, async (em) => {
        if (await reminderRepository.applyFacts(em, f)) cancelled = await reminderRepository.cancelSettled(em, f)
      })
      if (cancelled > 0) logger.info('assignment reminders cancelled', { eventId: event.id, ruleId: f.ruleId, userId: f.userId, cancelled })
      return
    }
    const r = fact.data
    let added = { pending: 0, paused: 0, cancelled: 0 }
    await handleOnce(orm, ASSIGNMENTS_CONSUMER, event, async (em) => {
      const user = await projectedUsers.findAny(em, r.userId)
      if (!user) {
        // Learning knows the person from identity's events; notify's projection of them may lag.
        // Thrown, the event comes again; a learner still unknown after an hour never will be.
        if (Date.now() - new Date(event.occurredAt).getTime() < UNKNOWN_LEARNER_RETRY_MS) throw new Error(`learner ${r.userId} not in notify's projection yet`)
        logger.warn('dropping an assignment reminder for an unknown learner', { eventId: event.id, userId: r.userId })
        return
      }
      if (user.deletedAt || !user.email) return
      const learner = { id: user.id, email: user.email, branch: user.branch ?? null, department: user.department ?? null }
      const escalation = r.stage === 'manager' || r.stage === 'operations'
      const recipients = recipientsFor(r.stage, {
        learner,
        managers: r.stage === 'manager' ? await reminderRepository.managers(em) : [],
        config: escalation ? await orgRepository.configFor(em, learner.branch, learner.department) : null,
      })
      if (recipients.length === 0) {
        logger.info('assignment reminder without a recipient', { eventId: event.id, stage: r.stage, userId: r.userId, ruleId: r.ruleId })
        return
      }
      const settled = await reminderRepository.isSettled(em, r.ruleId, r.userId, r.dueOn)
      const paused = !escalation && (await orgRepository.isPaused(em, r.userId, deps.now()))
      const rows: ReminderInput[] = recipients.map((to) => ({
        ruleId: r.ruleId,
        userId: r.userId,
        itemKind: r.itemKind,
        itemId: r.itemId,
        itemTitle: r.itemTitle,
        dueOn: r.dueOn,
        stage: r.stage,
        recipient: to.address,
        role: to.role,
        scanOn: r.on,
        eventId: event.id,
        status: settled ? 'cancelled' : to.role === 'learner' && paused ? 'paused' : 'pending',
      }))
      added = await reminderRepository.record(em, rows)
    })
    if (added.pending + added.paused + added.cancelled > 0) logger.info('assignment reminders recorded', { eventId: event.id, stage: r.stage, ...added })
  }
}

/** Subscribes the handler durably to learning's assignment events. */
export function subscribeAssignments(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(ASSIGNMENTS_CONSUMER, [...ASSIGNMENT_SUBJECTS], handler)
}
