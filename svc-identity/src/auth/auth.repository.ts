import type { EntityManager } from '@mikro-orm/postgresql'
import { PasswordResetTokenEntity, VerificationCodeEntity } from './auth.entity.ts'

export const verificationCodeRepository = {
  findByUser: (em: EntityManager, userId: string) => em.findOne(VerificationCodeEntity, { userId }),
  deleteByUser: (em: EntityManager, userId: string) => em.nativeDelete(VerificationCodeEntity, { userId }),
}

export const resetTokenRepository = {
  findByHash: (em: EntityManager, tokenHash: string) => em.findOne(PasswordResetTokenEntity, { tokenHash }),
  countCreatedSince: (em: EntityManager, userId: string, since: Date) =>
    em.count(PasswordResetTokenEntity, { userId, createdAt: { $gte: since } }),
  /** Older unused tokens of the user stop working when a new one is issued or one is used. */
  invalidateAll: (em: EntityManager, userId: string, at: Date) =>
    em.nativeUpdate(PasswordResetTokenEntity, { userId, usedAt: null }, { usedAt: at }),
}
