import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** A 6-digit verification code, uniformly random. */
export const newVerificationCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

export const newSalt = () => randomBytes(16).toString('base64url')

/** sha256(salt || code), base64url. */
export const hashCode = (code: string, salt: string) => createHash('sha256').update(salt).update(code).digest('base64url')

/** Constant-time comparison of two strings (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest()
  const hb = createHash('sha256').update(b).digest()
  return timingSafeEqual(ha, hb) && a.length === b.length
}

/** 32 random bytes, base64url: a reset or refresh token as its holder receives it. */
export const newSecretToken = () => randomBytes(32).toString('base64url')

/** What is stored for a reset or refresh token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')
