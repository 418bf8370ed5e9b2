import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import type { EventEnvelope } from '@portal/contracts'
import { USER_EVENTS, createUserProjection, type EventBus, type Logger, type Subscription } from '@portal/server-kit'

/**
 * Durable consumer name of svc-learning for identity's user events (and its inbox key). It is not
 * the `learning` that consumed only deletions before the user projection: under a new name every
 * subject gets a new durable consumer, which replays the stream from its start, deletions
 * included, so a replayed registration cannot bring back a user deleted before this version.
 */
export const USERS_CONSUMER = 'learning-users'
export const IDENTITY_SUBJECTS = USER_EVENTS

/**
 * What a deleted user leaves in learning: their exam and course assignments, any attempt under way
 * and their stored SCORM runtime data (whole cmi trees, shared data stores) go; graded attempts,
 * module progress and course completions stay (they are the history admins report on, and their
 * events already went out).
 */
async function dropDeletedUsersWork(em: EntityManager, userId: string) {
  await em.execute('delete from exam_assignments where user_id = ?', [userId])
  await em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId])
  await em.execute('delete from course_assignments where user_id = ?', [userId])
  await em.execute('delete from scorm_states where user_id = ?', [userId])
  await em.execute('delete from scorm_shared_data where user_id = ?', [userId])
}

/** Learning's `users` projection (the server kit's), with learning's own deletion side effects. */
export const createLearningUsers = (deps: { orm: MikroORM; logger: Logger }) =>
  createUserProjection({
    orm: deps.orm,
    logger: deps.logger,
    consumer: USERS_CONSUMER,
    onDeleted: dropDeletedUsersWork,
  })

/** The projection's event handler (registrations and updates store facts; a deletion is final). */
export function createIdentityHandler(deps: { orm: MikroORM; logger: Logger }): (event: EventEnvelope) => Promise<void> {
  return createLearningUsers(deps).handle
}

/** Subscribes the handler durably to identity's user events. */
export function subscribeIdentity(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(USERS_CONSUMER, [...IDENTITY_SUBJECTS], handler)
}
