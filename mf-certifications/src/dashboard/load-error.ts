import { ApiError, errorMessage } from '@portal/ui-kit'

/** A dashboard card's failed load (learner §8): authentication, else the server's message or the default. */
export const dashboardLoadError = (error: unknown): string =>
  error instanceof ApiError && error.status === 401 ? 'Authentication failed. Please log in again.' : errorMessage(error, 'Failed to load data. Please try again later.')
