import { randomUUID } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, todayIn, type EventEnvelope } from '@portal/contracts'
import { handleOnce, projectedUsers, recordGarbage, type EventBus, type GarbageCleaner, type Logger, type Subscription } from '@portal/server-kit'
import { certificationTypeRepository } from '../certification-types/index.ts'
import type { CertificationService, CompletionRenewal } from '../certifications/index.ts'

/** Durable consumer name of svc-certs for learning's completions (and its inbox key). */
export const COMPLETIONS_CONSUMER = 'certs-completions'
export const COMPLETION_SUBJECTS = ['learning.course.completed.v1', 'learning.exam.submitted.v1'] as const

/** A completion that may renew certifications: who, what, on which of the company's days, and its record. */
interface Completion {
  userId: string
  item: CompletionRenewal['item']
  day: string
  recordId: string
}

/** The completion an event states (null: malformed; 'failed': an exam not passed renews nothing). */
function completionOf(event: EventEnvelope, timeZone: string): Completion | 'failed' | null {
  if (event.type === 'learning.course.completed.v1') {
    const parsed = Events['learning.course.completed.v1'].safeParse(event.data)
    if (!parsed.success) return null
    const c = parsed.data
    return {
      userId: c.userId,
      item: { item_kind: 'course', item_id: c.courseId, item_title: c.courseTitle },
      day: todayIn(timeZone, new Date(c.completedAt)),
      recordId: `course completion ${event.id}`,
    }
  }
  const parsed = Events['learning.exam.submitted.v1'].safeParse(event.data)
  if (!parsed.success) return null
  const e = parsed.data
  if (!e.passed) return 'failed'
  // The submission is the completion: its event's time is when it was graded.
  return {
    userId: e.userId,
    item: { item_kind: 'exam', item_id: e.examId, item_title: e.examName },
    day: todayIn(timeZone, new Date(event.occurredAt)),
    recordId: `exam attempt ${e.attemptId}`,
  }
}

export interface CompletionHandlerDeps {
  orm: MikroORM
  logger: Logger
  /** The company's time zone: the completion's calendar day is the new period's obtained date. */
  timeZone: string
  now: () => Date
  certifications: Pick<CertificationService, 'renewByCompletion'>
  garbage: Pick<GarbageCleaner, 'collect'>
}

/**
 * Courses and exams that renew certifications (issue 24): a completed course, or a passed exam,
 * records a new period of every active certification type naming it in `renewed_by`, with a
 * generated certificate of completion as its proof (`renewByCompletion`), once per event (inbox):
 * a redelivery records nothing twice. A failed exam renews nothing; a learner the projection does
 * not know (or knows as deleted) is skipped with a log line.
 */
export function createCompletionHandler(deps: CompletionHandlerDeps) {
  const { orm, logger } = deps
  return async (event: EventEnvelope): Promise<void> => {
    if (!(COMPLETION_SUBJECTS as readonly string[]).includes(event.type)) return
    const completion = completionOf(event, deps.timeZone)
    if (completion === null) {
      logger.error('dropping a malformed completion event', { eventId: event.id, type: event.type })
      return
    }
    if (completion === 'failed') return
    // What renews nothing is not written anywhere (no inbox row, no file).
    const types = await certificationTypeRepository.renewedBy(orm.em.fork(), completion.item)
    if (types.length === 0) return
    const known = await projectedUsers.findExisting(orm.em.fork(), completion.userId)
    if (!known || known.name === null) {
      logger.warn('a completion renews no certification: the technician is not in the projection', { eventId: event.id, userId: completion.userId, item: completion.item })
      return
    }
    // One certificate per type, each key recorded as garbage before it is written and forgotten
    // by the transaction that makes it a proof; whatever was not (a redelivery, a type that
    // records nothing, a rollback) is collected afterwards.
    const keys = types.map(() => `proofs/${randomUUID()}`)
    await orm.em.fork().transactional((tx) =>
      recordGarbage(
        tx,
        keys.map((key) => ({ key, isPrefix: false })),
        deps.now(),
      ),
    )
    try {
      await handleOnce(orm, COMPLETIONS_CONSUMER, event, async (em) => {
        // Share-locked: a deletion of the user handled meanwhile waits for this transaction.
        const [user] = await projectedUsers.lockExisting(em, [completion.userId])
        if (!user) {
          logger.warn('a completion renews no certification: the technician was deleted', { eventId: event.id, userId: completion.userId })
          return
        }
        for (const [i, certificationTypeId] of types.entries()) {
          const outcome = await deps.certifications.renewByCompletion(em, {
            user,
            certificationTypeId,
            item: completion.item,
            day: completion.day,
            recordId: completion.recordId,
            key: keys[i]!,
          })
          if (outcome.recorded)
            logger.info('certification renewed by a completion', { eventId: event.id, userId: user.id, certificationTypeId, change: outcome.change, item: completion.item })
          else logger.info('a completion renews no certification', { eventId: event.id, userId: user.id, certificationTypeId, reason: outcome.reason })
        }
      })
    } finally {
      await deps.garbage.collect(keys).catch((err: unknown) => logger.warn('unused completion certificates not removed yet', { keys, err: err as Error }))
    }
  }
}

/** Subscribes the handler durably to learning's course completions and exam submissions. */
export const subscribeCompletions = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(COMPLETIONS_CONSUMER, [...COMPLETION_SUBJECTS], handler)
