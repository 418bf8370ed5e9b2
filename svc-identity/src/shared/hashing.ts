/**
 * The password hasher as the services see it (the context carries one): its implementation, the
 * KDF and its scheduler, is the auth feature's (auth/password.ts, auth/kdf-scheduler.ts).
 */

/**
 * Who a password hash is for: a browser that signed in as this user before (`known`, it holds the
 * user's device cookie) or anyone else (`unknown`: other sign-ins, registrations, resets).
 */
export type KdfLane = 'known' | 'unknown'

/** One hash's place in the scheduler (see `KdfTurn`): one of its hashing calls, or `leave`. */
export interface HashingTurn {
  hash(password: string): Promise<string>
  verify(password: string, stored: string): Promise<boolean>
  dummyVerify(password: string): Promise<void>
  /** Gives the place back unused (the request ended before hashing). */
  leave(): void
}

/** The hasher as the services use it: each hash takes its place in the scheduler first, in the lane of whom it is for. */
export interface ScheduledHasher {
  /** Takes a place for one hash; throws `KdfBusy` at once when hashing is too busy for `lane`. */
  enter(lane: KdfLane): HashingTurn
}
