import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'

/**
 * The pending e-mail verification code of a user (one per user; a new code replaces it).
 * The send counters live here too so resends stay bounded across code replacements.
 */
export const VerificationCodeEntity = defineEntity({
  name: 'VerificationCodeEntity',
  tableName: 'verification_codes',
  properties: {
    userId: p.uuid().primary(),
    codeHash: p.string(),
    salt: p.string(),
    expiresAt: p.datetime(),
    attempts: p.integer(),
    lastSentAt: p.datetime(),
    sendWindowStartedAt: p.datetime(),
    sendsInWindow: p.integer(),
  },
})
export type VerificationCodeEntity = InferEntity<typeof VerificationCodeEntity>

/** A password reset token, stored as its sha256. */
export const PasswordResetTokenEntity = defineEntity({
  name: 'PasswordResetTokenEntity',
  tableName: 'password_reset_tokens',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    tokenHash: p.string(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
})
export type PasswordResetTokenEntity = InferEntity<typeof PasswordResetTokenEntity>

/** Failed sign-in counter per key (`account:<email>` or `address:<ip>`), in a fixed window. */
export const LoginThrottleEntity = defineEntity({
  name: 'LoginThrottleEntity',
  tableName: 'login_throttle',
  properties: {
    key: p.string().primary(),
    failures: p.integer(),
    windowStartedAt: p.datetime(),
  },
})
export type LoginThrottleEntity = InferEntity<typeof LoginThrottleEntity>
