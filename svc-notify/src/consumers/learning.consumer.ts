import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventData, type EventEnvelope, type NotificationType } from '@portal/contracts'
import { handleOnce, projectedUsers, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { adminEmailRepository } from '../admin-emails/index.ts'
import type { DeliveryRepository } from '../deliveries/index.ts'
import { learningFacts, type RuleService } from '../group-reports/index.ts'
import { renderEmail, courseCompletedEmail, examCompletedEmail, type Learner } from '../mail/index.ts'

/** Durable consumer name of svc-notify for learning's events (and its inbox key). */
export const LEARNING_CONSUMER = 'notify-learning'

export const LEARNING_SUBJECTS = ['learning.exam.submitted.v1', 'learning.course.completed.v1', 'learning.course.progressed.v1'] as const

type Fact =
  | { kind: 'exam'; data: EventData<'learning.exam.submitted.v1'> }
  | { kind: 'course'; data: EventData<'learning.course.completed.v1'> }
  | { kind: 'progress'; data: EventData<'learning.course.progressed.v1'> }

function parse(event: EventEnvelope): Fact | null | undefined {
  const kinds = { 'learning.exam.submitted.v1': 'exam', 'learning.course.completed.v1': 'course', 'learning.course.progressed.v1': 'progress' } as const
  const kind = kinds[event.type as keyof typeof kinds]
  if (!kind) return undefined
  const parsed = Events[event.type as keyof typeof kinds].safeParse(event.data)
  return parsed.success ? ({ kind, data: parsed.data } as Fact) : null
}

/** The completions admins and groups are mailed about: the type of admin e-mail and the tracked item. */
const completionOf = (fact: Fact): { type: NotificationType; item: { type: 'exam' | 'course'; id: number } } | null =>
  fact.kind === 'exam'
    ? { type: 'exam_completion', item: { type: 'exam', id: fact.data.examId } }
    : fact.kind === 'course'
      ? { type: 'course_completion', item: { type: 'course', id: fact.data.courseId } }
      : null

/**
 * Handles learning's exam and course events exactly once: it records the learner's result in
 * notify's projection, queues one mail to every active admin e-mail of the matching type
 * (exam_completion, course_completion) and one to every recipient of an active immediate rule of
 * the learner's group that tracks the exam or course, all in the inbox row's transaction, so a
 * redelivered event mails nobody twice. The learner is named from notify's projection of users.
 */
export function createLearningHandler(deps: { orm: MikroORM; deliveries: DeliveryRepository; rules: Pick<RuleService, 'queueImmediate'>; logger: Logger; onQueued?: () => void }) {
  const { orm, logger } = deps
  return async (event: EventEnvelope): Promise<void> => {
    const fact = parse(event)
    if (fact === undefined) return
    if (fact === null) {
      logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const user = await projectedUsers.findAny(orm.em.fork(), fact.data.userId)
    const learner: Learner = user?.name ? { name: user.name, email: user.email ?? null } : { name: `Learner ${fact.data.userId}`, email: null }
    const completion = completionOf(fact)
    // Rendered before the transaction: a render failure is ours and throws, so the event comes again.
    const mail =
      fact.kind === 'exam'
        ? await renderEmail(
            examCompletedEmail({
              learner,
              examName: fact.data.examName,
              score: fact.data.score,
              passed: fact.data.passed,
              attemptNumber: fact.data.attemptNumber,
              submittedAt: event.occurredAt,
            }),
          )
        : fact.kind === 'course'
          ? await renderEmail(courseCompletedEmail({ learner, courseTitle: fact.data.courseTitle, completedAt: fact.data.completedAt }))
          : null
    let queued = 0
    const handled = await handleOnce(orm, LEARNING_CONSUMER, event, async (em) => {
      const at = new Date(event.occurredAt)
      if (fact.kind === 'exam') {
        const d = fact.data
        await learningFacts.examSubmitted(em, { userId: d.userId, examId: d.examId, examName: d.examName, score: d.score, passed: d.passed, at })
      } else if (fact.kind === 'course') {
        const d = fact.data
        await learningFacts.courseProgressed(em, { userId: d.userId, courseId: d.courseId, courseTitle: d.courseTitle, progress: 100, completedAt: new Date(d.completedAt), at })
      } else {
        const d = fact.data
        await learningFacts.courseProgressed(em, {
          userId: d.userId,
          courseId: d.courseId,
          courseTitle: d.courseTitle,
          progress: d.progress,
          completedAt: null,
          at: new Date(d.at),
        })
      }
      if (!completion || !mail) return
      for (const to of await adminEmailRepository.activeFor(em, completion.type)) {
        deps.deliveries.queue(em, { eventId: event.id, kind: completion.type, to, ...mail })
        queued++
      }
      if (user && !user.deletedAt) queued += await deps.rules.queueImmediate(em, { eventId: event.id, group: user.userGroup ?? null, item: completion.item, mail })
    })
    if (handled && queued > 0) {
      logger.info('completion e-mails queued', { eventId: event.id, type: event.type, recipients: queued })
      deps.onQueued?.()
    }
  }
}

/** Subscribes the handler durably to learning's events. */
export function subscribeLearning(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(LEARNING_CONSUMER, [...LEARNING_SUBJECTS], handler)
}
