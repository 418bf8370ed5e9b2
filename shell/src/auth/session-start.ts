import { hasIdentity } from '@portal/ui-kit'

/** What the shell does at start with what localStorage holds (spec §4). */
export type StartDecision = 'validate' | 'anonymous'

/**
 * A stored user and token with id, email and name are validated against the server; anything
 * less means "signed out" (and the leftovers are cleared by the caller).
 */
export const decideStart = (token: string | null, storedUser: unknown): StartDecision =>
  token && hasIdentity(storedUser) ? 'validate' : 'anonymous'
