import { SignJWT, jwtVerify } from 'jose'
import { AppError, loadOrCreateKeyFile } from '@portal/server-kit'
import { COURSE_MESSAGES } from '@portal/contracts'

import type { LaunchClaims, LaunchTokens } from '../../shared/index.ts'

const ALG = 'HS256'
const AUDIENCE = 'learning-content'

/** Loads the launch-token secret from `file`, creating a random one when absent (single-node mode). */
export const loadOrCreateLaunchSecret = (file: string): Promise<Uint8Array> => loadOrCreateKeyFile(file)

export const launchExpired = () => new AppError(401, 'launch_expired', COURSE_MESSAGES.launchExpired)
const invalidLaunch = () => new AppError(401, 'invalid_launch_token', 'Invalid content link')

/** Issues and verifies launch tokens (HS256 with the service's secret). Verified tokens are cached. */
export function createLaunchTokens(secret: Uint8Array, opts: { ttlSeconds?: number; now?: () => Date } = {}): LaunchTokens {
  if (secret.length < 32) throw new Error('the launch-token secret must have at least 32 bytes')
  const ttlSeconds = opts.ttlSeconds ?? 8 * 3600
  const now = opts.now ?? (() => new Date())
  const cache = new Map<string, LaunchClaims>()
  const CACHE_MAX = 20_000

  return {
    ttlSeconds,
    async issue(c: { userId: string; moduleId: number; courseId: number; admin?: boolean }): Promise<{ token: string; claims: LaunchClaims }> {
      const at = now()
      const claims: LaunchClaims = {
        ...c,
        admin: c.admin === true,
        launchId: crypto.randomUUID(),
        issuedAt: at.getTime(),
        expiresAt: new Date(at.getTime() + ttlSeconds * 1000),
      }
      const token = await new SignJWT({ mid: c.moduleId, cid: c.courseId, lat: claims.issuedAt, ...(claims.admin ? { adm: true } : {}) })
        .setProtectedHeader({ alg: ALG })
        .setSubject(c.userId)
        .setJti(claims.launchId)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(claims.issuedAt / 1000))
        .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
        .sign(secret)
      return { token, claims }
    },

    /** The token's claims; 401 `launch_expired` when it has expired, 401 `invalid_launch_token` otherwise. */
    async verify(token: string): Promise<LaunchClaims> {
      const hit = cache.get(token)
      if (hit) {
        if (hit.expiresAt.getTime() <= now().getTime()) throw launchExpired()
        return hit
      }
      if (token.length > 2048) throw invalidLaunch()
      let payload
      try {
        ;({ payload } = await jwtVerify(token, secret, {
          algorithms: [ALG],
          audience: AUDIENCE,
          currentDate: now(),
          requiredClaims: ['sub', 'exp', 'jti'],
        }))
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_JWT_EXPIRED') throw launchExpired()
        throw invalidLaunch()
      }
      const claims: LaunchClaims = {
        userId: String(payload.sub),
        moduleId: Number(payload.mid),
        courseId: Number(payload.cid),
        admin: payload.adm === true,
        launchId: String(payload.jti),
        issuedAt: Number(payload.lat),
        expiresAt: new Date(Number(payload.exp) * 1000),
      }
      if (!Number.isInteger(claims.moduleId) || !Number.isInteger(claims.courseId) || !Number.isFinite(claims.issuedAt)) throw invalidLaunch()
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
      cache.set(token, claims)
      return claims
    },
  }
}
