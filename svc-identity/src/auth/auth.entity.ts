import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'

/** A code's hash, expiry and tries, and the send counters (kept across code replacements). */
const codeState = () => ({
  userId: p.uuid().primary(),
  codeHash: p.string(),
  salt: p.string(),
  expiresAt: p.datetime(),
  attempts: p.integer(),
  lastSentAt: p.datetime(),
  sendWindowStartedAt: p.datetime(),
  sendsInWindow: p.integer(),
})

/**
 * The pending e-mail verification code of a user (one per user; a new code replaces it).
 * The send counters live here too so resends stay bounded across code replacements.
 */
export const VerificationCodeEntity = defineEntity({
  name: 'VerificationCodeEntity',
  tableName: 'verification_codes',
  properties: codeState(),
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

/**
 * What a registration with a taken address leaves behind (or an unknown id met by verify/resend):
 * the send and try counters a pending registration has, so the id answers exactly like one. Its
 * code hash matches no code.
 */
export const VerificationDecoyEntity = defineEntity({
  name: 'VerificationDecoyEntity',
  tableName: 'verification_decoys',
  properties: { ...codeState(), createdAt: p.datetime() },
})
export type VerificationDecoyEntity = InferEntity<typeof VerificationDecoyEntity>

/** A refresh token, stored as its sha256; one family per sign-in, one row per rotation. */
export const RefreshTokenEntity = defineEntity({
  name: 'RefreshTokenEntity',
  tableName: 'refresh_tokens',
  properties: {
    id: p.uuid().primary(),
    familyId: p.uuid(),
    userId: p.uuid(),
    tokenHash: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    familyExpiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
})
export type RefreshTokenEntity = InferEntity<typeof RefreshTokenEntity>

/**
 * A browser a user signed in from (the device cookie, stored as its sha256): its sign-ins are
 * hashed first and escape the lockout that unknown clients' failures put on the account.
 */
export const KnownDeviceEntity = defineEntity({
  name: 'KnownDeviceEntity',
  tableName: 'known_devices',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    tokenHash: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
})
export type KnownDeviceEntity = InferEntity<typeof KnownDeviceEntity>
