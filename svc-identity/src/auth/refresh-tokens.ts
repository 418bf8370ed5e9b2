import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql'
import { MESSAGES } from '@portal/contracts'
import { unauthorized, type Logger } from '@portal/server-kit'
import type { IdentitySettings } from '../settings.ts'
import { UserEntity } from '../users/index.ts'
import { RefreshTokenEntity } from './auth.entity.ts'
import { hashToken, newSecretToken } from './secrets.ts'

/** A refresh token handed to the browser (as an HttpOnly cookie) and how long it lives. */
export interface IssuedRefreshToken {
  token: string
  maxAgeSeconds: number
  /** The session (token family) it belongs to, and when that session ends at the latest. */
  familyId: string
  familyExpiresAt: Date
}

/**
 * How long a retired refresh token still brings a successor instead of ending its session. The
 * shell refreshes at every page load (the access token lives in memory only, decision 0019): a
 * reload that interrupts that call leaves the browser with the token the server just retired, and
 * the next load presents it again — the owner, not a thief, within a second or two.
 */
export const RETIRED_TOKEN_GRACE_MS = 10_000

/** 401 for a refresh that cannot be honoured: the session is over, the shell signs the user out. */
export const sessionEnded = (code = 'refresh_invalid') => unauthorized(MESSAGES.sessionExpired, code, { expired: true })

/**
 * Rotating refresh tokens (one family per sign-in): each use returns a successor and retires the
 * token; a retired token presented again means it was copied, so its whole family is revoked.
 */
export function createRefreshTokens(deps: { orm: MikroORM; settings: IdentitySettings; now: () => Date; logger: Logger }) {
  const { orm, settings, now } = deps

  /** Stores a new token of `familyId` (a new family when absent) for the user; returns it. */
  const issue = (em: EntityManager, userId: string, family?: { id: string; expiresAt: Date }): IssuedRefreshToken => {
    const at = now()
    const familyExpiresAt = family?.expiresAt ?? new Date(at.getTime() + settings.SESSION_MAX_SECONDS * 1000)
    const expiresAt = new Date(Math.min(at.getTime() + settings.REFRESH_TOKEN_TTL_SECONDS * 1000, familyExpiresAt.getTime()))
    const token = newSecretToken()
    const familyId = family?.id ?? crypto.randomUUID()
    em.create(RefreshTokenEntity, {
      id: crypto.randomUUID(),
      familyId,
      userId,
      tokenHash: hashToken(token),
      createdAt: at,
      expiresAt,
      familyExpiresAt,
      usedAt: null,
      revokedAt: null,
    })
    return { token, maxAgeSeconds: Math.max(1, Math.floor((expiresAt.getTime() - at.getTime()) / 1000)), familyId, familyExpiresAt }
  }

  const revokeFamily = (em: EntityManager, familyId: string, at: Date) => em.nativeUpdate(RefreshTokenEntity, { familyId, revokedAt: null }, { revokedAt: at })

  return {
    issue,

    /**
     * Retires `token` and issues its successor; resolves with the user (read afresh, so the new
     * access token carries today's roles and auth version). A retired token revokes its family,
     * unless it was retired less than RETIRED_TOKEN_GRACE_MS ago: then it gets another successor.
     */
    async rotate(token: string | undefined): Promise<{ user: UserEntity; refresh: IssuedRefreshToken }> {
      if (!token) throw sessionEnded()
      const outcome = await orm.em.fork().transactional(async (em) => {
        const at = now()
        const row = await em.findOne(RefreshTokenEntity, { tokenHash: hashToken(token) }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (!row || row.revokedAt || row.expiresAt.getTime() <= at.getTime()) return 'invalid' as const
        const retiredJustNow = row.usedAt != null && at.getTime() - row.usedAt.getTime() < RETIRED_TOKEN_GRACE_MS
        if (row.usedAt && !retiredJustNow) {
          // Committed although the call fails: the copy and the original both stop working.
          await revokeFamily(em, row.familyId, at)
          return 'reused' as const
        }
        const user = await em.findOne(UserEntity, { id: row.userId })
        if (!user) return 'invalid' as const
        row.usedAt ??= at
        return { user, refresh: issue(em, user.id, { id: row.familyId, expiresAt: row.familyExpiresAt }) }
      })
      if (outcome === 'reused') {
        deps.logger.warn('refresh token reused: session revoked')
        throw sessionEnded('refresh_reused')
      }
      if (outcome === 'invalid') throw sessionEnded()
      return outcome
    },

    /** The session (family) of `token`, if it is one of ours. */
    async familyOf(token: string | undefined): Promise<string | null> {
      if (!token) return null
      const row = await orm.em.fork().findOne(RefreshTokenEntity, { tokenHash: hashToken(token) })
      return row?.familyId ?? null
    },

    /** Ends a session by its family (a provider refused it), inside the caller's transaction or on its own. */
    revokeFamily: (familyId: string, em: EntityManager = orm.em.fork()) => revokeFamily(em, familyId, now()),

    /** Ends the session `token` belongs to (logout); an unknown token is ignored. */
    async revoke(token: string | undefined): Promise<void> {
      if (!token) return
      await orm.em.fork().transactional(async (em) => {
        const row = await em.findOne(RefreshTokenEntity, { tokenHash: hashToken(token) })
        if (row) await revokeFamily(em, row.familyId, now())
      })
    },

    /** Ends every session of the user (password reset), inside the caller's transaction. */
    revokeAllOf: (em: EntityManager, userId: string) => em.nativeUpdate(RefreshTokenEntity, { userId, revokedAt: null }, { revokedAt: now() }),

    /** Drops tokens long expired (keeps the table small). */
    prune: (em: EntityManager) => em.nativeDelete(RefreshTokenEntity, { expiresAt: { $lt: new Date(now().getTime() - 86400_000) } }),
  }
}
export type RefreshTokens = ReturnType<typeof createRefreshTokens>
