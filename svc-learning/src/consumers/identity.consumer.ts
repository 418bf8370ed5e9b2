import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { DEFAULT_COMPANY_TIME_ZONE, todayIn, type EventEnvelope } from '@portal/contracts'
import { USER_EVENTS, createUserProjection, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { applyRulesToUser, removeDeletedUser, type Calendar } from '../assignments/index.ts'
import { forgetUser as forgetCourseData } from '../courses/index.ts'
import { forgetUser as forgetExamData } from '../exams/index.ts'

/**
 * Durable consumer name of svc-learning for identity's user events (and its inbox key). It is not
 * the `learning` that consumed only deletions before the user projection: under a new name every
 * subject gets a new durable consumer, which replays the stream from its start, deletions
 * included, so a replayed registration cannot bring back a user deleted before this version.
 */
export const USERS_CONSUMER = 'learning-users'
export const IDENTITY_SUBJECTS = USER_EVENTS

/** What a deleted user leaves in learning: each wing forgets what it holds of them; they are no longer assigned anything. */
async function forgetDeletedUser(em: EntityManager, userId: string, at: Date) {
  await forgetExamData(em, userId)
  await forgetCourseData(em, userId)
  await removeDeletedUser(em, userId, at)
}

/** The company's calendar when none is given (the default time zone, the wall clock). */
const defaultCalendar = (): Calendar => ({ timeZone: DEFAULT_COMPANY_TIME_ZONE, today: () => todayIn(DEFAULT_COMPANY_TIME_ZONE), now: () => new Date() })

/**
 * Learning's `users` projection (the server kit's), with learning's own side effects: a user
 * registered or changed gets the assignment rules that now take them (and leaves those that no
 * longer do, issue 24); a deleted user's data goes.
 */
export const createLearningUsers = (deps: { orm: MikroORM; logger: Logger; calendar?: Calendar }) => {
  const calendar = deps.calendar ?? defaultCalendar()
  return createUserProjection({
    orm: deps.orm,
    logger: deps.logger,
    consumer: USERS_CONSUMER,
    onDeleted: (em, userId) => forgetDeletedUser(em, userId, calendar.now()),
    onUpserted: (em, userId) => applyRulesToUser(em, userId, calendar),
  })
}

/** The projection's event handler (registrations and updates store facts; a deletion is final). */
export function createIdentityHandler(deps: { orm: MikroORM; logger: Logger; calendar?: Calendar }): (event: EventEnvelope) => Promise<void> {
  return createLearningUsers(deps).handle
}

/** Subscribes the handler durably to identity's user events. */
export function subscribeIdentity(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(USERS_CONSUMER, [...IDENTITY_SUBJECTS], handler)
}
