import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope, type NotificationType } from '@portal/contracts'
import { handleOnce, projectedUsers, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { adminEmailRepository } from '../admin-emails/admin-email.repository.ts'
import type { DeliveryRepository } from '../deliveries/delivery.repository.ts'
import { learningFacts } from '../group-reports/learning-facts.repository.ts'
import type { RenderedEmail } from '../mail/message.ts'
import { renderEmail } from '../mail/render.ts'
import { courseCompletedEmail, examCompletedEmail, type Learner } from '../mail/templates/admin-completion.ts'

/** Durable consumer name of svc-notify for learning's events (and its inbox key). */
export const LEARNING_CONSUMER = 'notify-learning'

export const LEARNING_SUBJECTS = ['learning.exam.submitted.v1', 'learning.course.completed.v1'] as const

type Fact =
  | { kind: 'exam'; type: NotificationType; data: ReturnType<(typeof Events)['learning.exam.submitted.v1']['parse']> }
  | { kind: 'course'; type: NotificationType; data: ReturnType<(typeof Events)['learning.course.completed.v1']['parse']> }

function parse(event: EventEnvelope): Fact | null | undefined {
  switch (event.type) {
    case 'learning.exam.submitted.v1': {
      const parsed = Events['learning.exam.submitted.v1'].safeParse(event.data)
      return parsed.success ? { kind: 'exam', type: 'exam_completion', data: parsed.data } : null
    }
    case 'learning.course.completed.v1': {
      const parsed = Events['learning.course.completed.v1'].safeParse(event.data)
      return parsed.success ? { kind: 'course', type: 'course_completion', data: parsed.data } : null
    }
    default:
      return undefined
  }
}

/**
 * Handles learning's exam and course events exactly once: it records the learner's result in
 * notify's projection and queues one mail to every active admin e-mail of the matching type
 * (exam_completion, course_completion), all in the inbox row's transaction, so a redelivered
 * event mails nobody twice. The learner is named from notify's projection of identity's users.
 */
export function createLearningHandler(deps: { orm: MikroORM; deliveries: DeliveryRepository; logger: Logger; onQueued?: () => void }) {
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
    // Rendered before the transaction: a render failure is ours and throws, so the event comes again.
    const mail: RenderedEmail = await renderEmail(
      fact.kind === 'exam'
        ? examCompletedEmail({ learner, examName: fact.data.examName, score: fact.data.score, passed: fact.data.passed, attemptNumber: fact.data.attemptNumber, submittedAt: event.occurredAt })
        : courseCompletedEmail({ learner, courseTitle: fact.data.courseTitle, completedAt: fact.data.completedAt }),
    )
    let queued = 0
    const handled = await handleOnce(orm, LEARNING_CONSUMER, event, async (em) => {
      const at = new Date(event.occurredAt)
      if (fact.kind === 'exam') {
        const d = fact.data
        await learningFacts.examSubmitted(em, { userId: d.userId, examId: d.examId, examName: d.examName, score: d.score, passed: d.passed, at })
      } else {
        const d = fact.data
        await learningFacts.courseProgressed(em, { userId: d.userId, courseId: d.courseId, courseTitle: d.courseTitle, progress: 100, completedAt: new Date(d.completedAt), at })
      }
      for (const to of await adminEmailRepository.activeFor(em, fact.type)) {
        deps.deliveries.queue(em, { eventId: event.id, kind: fact.type, to, ...mail })
        queued++
      }
    })
    if (handled && queued > 0) {
      logger.info('admin e-mails queued', { eventId: event.id, type: event.type, recipients: queued })
      deps.onQueued?.()
    }
  }
}

/** Subscribes the handler durably to learning's events. */
export function subscribeLearning(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(LEARNING_CONSUMER, [...LEARNING_SUBJECTS], handler)
}
