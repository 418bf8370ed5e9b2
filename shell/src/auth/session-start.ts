import { hasIdentity } from '@portal/ui-kit'

/** What the shell does at start with what localStorage holds (spec §4). */
export type StartDecision = 'validate' | 'anonymous'

/**
 * A stored user with id, email and name is validated against the server: the refresh cookie
 * brings a new access token (kept in memory only, decision 0019) and the user as stored now.
 * Anything less means "signed out" (and the leftovers are cleared by the caller).
 */
export const decideStart = (storedUser: unknown): StartDecision => (hasIdentity(storedUser) ? 'validate' : 'anonymous')
