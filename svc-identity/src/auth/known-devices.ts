import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { KnownDeviceEntity } from './auth.entity.ts'
import { knownDeviceRepository } from './auth.repository.ts'
import { hashToken, newSecretToken } from './secrets.ts'

/**
 * The device cookie: HttpOnly, SameSite=Strict, sent only to the sign-in route. It marks a browser
 * that signed in as a user before (OWASP, "Slow Down Online Guessing Attacks with Device Cookies").
 */
export const DEVICE_COOKIE = 'portal_device'
/** The gateway's public path of the sign-in route: the only request that needs the cookie. */
export const DEVICE_COOKIE_PATH = '/api/auth/login'

const DAY = 86400_000
/** A browser unused this long is unknown again (every sign-in from it starts the period over). */
export const DEVICE_LIFETIME_DAYS = 180
/** Browsers remembered per user; signing in from one more forgets the oldest. */
export const DEVICES_PER_USER = 20

/** A device cookie handed to the browser and how long it lives. */
export interface IssuedDeviceToken {
  token: string
  maxAgeSeconds: number
}

/** The browsers users signed in from, each a random token stored as its sha256 (`known_devices`). */
export function createKnownDevices(deps: { orm: MikroORM; now: () => Date }) {
  const { orm, now } = deps
  return {
    /** The device of a cookie's token, while it lasts; null for a missing, unknown or expired one. */
    async find(token: string | undefined): Promise<KnownDeviceEntity | null> {
      if (!token) return null
      const device = await orm.em.fork().findOne(KnownDeviceEntity, { tokenHash: hashToken(token) })
      return device && device.expiresAt.getTime() > now().getTime() ? device : null
    },

    /**
     * A new device token for the user's browser, stored with `em` (flushed by the caller); the
     * `replacing` one it presented is forgotten, and so are the user's oldest beyond the bound.
     */
    async issue(em: EntityManager, userId: string, replacing?: KnownDeviceEntity | null): Promise<IssuedDeviceToken> {
      const at = now()
      const replaced = replacing && replacing.userId === userId ? replacing.id : null
      await knownDeviceRepository.forgetReplacedAndOldest(em, userId, replaced, DEVICES_PER_USER - 1)
      const token = newSecretToken()
      em.create(KnownDeviceEntity, { id: crypto.randomUUID(), userId, tokenHash: hashToken(token), createdAt: at, expiresAt: new Date(at.getTime() + DEVICE_LIFETIME_DAYS * DAY) })
      return { token, maxAgeSeconds: DEVICE_LIFETIME_DAYS * 86400 }
    },

    /** Forgets every browser of the user (a password reset: the account starts over). */
    forgetAllOf: (em: EntityManager, userId: string) => em.nativeDelete(KnownDeviceEntity, { userId }),

    /** Drops devices expired (keeps the table small). */
    prune: (em: EntityManager) => em.nativeDelete(KnownDeviceEntity, { expiresAt: { $lt: now() } }),
  }
}
export type KnownDevices = ReturnType<typeof createKnownDevices>
