import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { userRepository, type UserFacts } from '../users/user.repository.ts'

/**
 * Durable consumer name of svc-learning for identity's user events (and its inbox key). It is not
 * the `learning` that consumed only deletions before the user projection: under a new name every
 * subject gets a new durable consumer, which replays the stream from its start, deletions
 * included, so a replayed registration cannot bring back a user deleted before this version.
 */
export const USERS_CONSUMER = 'learning-users'
export const IDENTITY_SUBJECTS = ['identity.user.registered.v1', 'identity.user.updated.v1', 'identity.user.deleted.v1'] as const
type IdentitySubject = (typeof IDENTITY_SUBJECTS)[number]

const isIdentitySubject = (type: string): type is IdentitySubject => (IDENTITY_SUBJECTS as readonly string[]).includes(type)

type UserChange = { kind: 'facts'; facts: UserFacts } | { kind: 'deleted'; userId: string }

function parseChange(type: IdentitySubject, data: unknown): UserChange | null {
  if (type === 'identity.user.deleted.v1') {
    const parsed = Events[type].safeParse(data)
    return parsed.success ? { kind: 'deleted', userId: parsed.data.userId } : null
  }
  // An update carries the same facts as a registration.
  const parsed = Events['identity.user.registered.v1'].safeParse(data)
  return parsed.success ? { kind: 'facts', facts: parsed.data } : null
}

/**
 * Keeps the `users` projection: registrations and updates store the user's facts unless newer
 * ones are stored already. A deleted user is marked so (for good) and loses their exam and course
 * assignments, any attempt under way and their stored SCORM runtime data (whole cmi trees, shared
 * data stores); graded attempts, module progress and course completions stay (they are the
 * history admins report on, and their events already went out).
 */
export function createIdentityHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (!isIdentitySubject(event.type)) return
    const change = parseChange(event.type, event.data)
    if (!change) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const occurredAt = new Date(event.occurredAt)
    await handleOnce(deps.orm, USERS_CONSUMER, event, async (em) => {
      if (change.kind === 'facts') {
        await userRepository.applyFacts(em, change.facts, occurredAt)
        return
      }
      const { userId } = change
      // The mark first: it waits for an assignment under way to this user, whose rows the deletes below then see.
      await userRepository.markDeleted(em, userId, occurredAt)
      await em.execute('delete from exam_assignments where user_id = ?', [userId])
      await em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId])
      await em.execute('delete from course_assignments where user_id = ?', [userId])
      await em.execute('delete from scorm_states where user_id = ?', [userId])
      await em.execute('delete from scorm_shared_data where user_id = ?', [userId])
    })
  }
}

/** Subscribes the handler durably to identity's user events. */
export function subscribeIdentity(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(USERS_CONSUMER, [...IDENTITY_SUBJECTS], handler)
}
