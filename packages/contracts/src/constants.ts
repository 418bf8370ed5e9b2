/** Branches of the company (spec §3 constants). */
export const BRANCHES = ['Portland', 'Seattle', 'Anchorage', 'Tri-Cities'] as const

/** Departments; Anchorage and Tri-Cities have no Electricians. */
export const DEPARTMENTS = ['Service', 'Testing', 'Construction', 'Electricians'] as const

/** The departments a branch has. */
export const departmentsOf = (branch: (typeof BRANCHES)[number]): readonly (typeof DEPARTMENTS)[number][] =>
  branch === 'Anchorage' || branch === 'Tri-Cities' ? DEPARTMENTS.filter((d) => d !== 'Electricians') : DEPARTMENTS

export const PASSWORD_MIN = 8
export const VERIFICATION_CODE_TTL_MINUTES = 15
export const VERIFICATION_CODE_MAX_TRIES = 5
/** A new verification code may be asked for this long after the last one was sent. */
export const VERIFICATION_RESEND_SECONDS = 30
export const RESET_TOKEN_TTL_MINUTES = 60
/**
 * What the browser keeps in localStorage: the signed-in user (spec §3). The spec's `token` key is
 * not used: the access token stays in memory and a reload gets a new one from the refresh cookie
 * (decision 0019); a `token` left by an earlier version is removed at start.
 */
export const STORAGE_KEYS = { user: 'user', legacyToken: 'token' } as const
export const REQUEST_TIMEOUT_MS = 300_000

/** Texts the user sees, shared by the shell and the server so both say the same thing. */
export const MESSAGES = {
  domain: (domain: string) => `Registration is limited to employees (@${domain} email addresses only)`,
  invalidAdminCode: 'Invalid admin code',
  passwordMin: 'Password must be at least 8 characters long',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordsDoNotMatch: 'Passwords do not match',
  invalidResetLink: 'Invalid reset link. Please request a new password reset.',
  branchRequired: 'Branch is required',
  departmentRequired: 'Department is required',
  groupNameRequired: 'Group name is required',
  sessionExpired: 'Your session has expired. Please log in again.',
} as const
