import { MESSAGES, StrongPassword } from '@portal/contracts'

/** Null when the e-mail belongs to the company domain (case-insensitive), else the spec's message. */
export const companyEmailError = (email: string, domain: string | undefined): string | null => {
  if (!domain) return null
  const value = email.trim().toLowerCase()
  if (!value) return null
  return value.endsWith(`@${domain.toLowerCase()}`) ? null : MESSAGES.domain(domain)
}

/** Live check while typing: only once an "@" is typed, so a half-typed name is not flagged. */
export const liveCompanyEmailError = (email: string, domain: string | undefined): string | null => (email.includes('@') ? companyEmailError(email, domain) : null)

/** Registration password: required, then the reset rules (the server applies both alike). */
export const registrationPasswordError = (password: string): string | null => {
  if (!password) return 'Password is required'
  return newPasswordError(password)
}

/**
 * Password rules of spec §5 (reset, and registration too): the first failing rule's message or
 * null. The contract's schema is the server's, so both ends say the same.
 */
export function newPasswordError(password: string): string | null {
  return StrongPassword.safeParse(password).error?.issues[0]?.message ?? null
}

export const confirmPasswordError = (password: string, confirm: string): string | null => (password === confirm ? null : MESSAGES.passwordsDoNotMatch)

/** Keeps digits only, at most 6 (verification code input). */
export const sanitizeVerificationCode = (raw: string): string => raw.replace(/\D/g, '').slice(0, 6)

export const isCompleteVerificationCode = (code: string): boolean => /^\d{6}$/.test(code)

/** Under the verification screen's Resend Code: when a new code can be asked for. */
export const resendHint = (secondsLeft: number): string =>
  secondsLeft > 0 ? `You can ask for a new code in ${secondsLeft} second${secondsLeft === 1 ? '' : 's'}.` : 'No code? Check your spam folder, or ask for a new one.'
