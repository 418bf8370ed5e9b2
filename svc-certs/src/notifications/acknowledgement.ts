import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { notificationRepository } from './notification.repository.ts'

/** How long a manager's acknowledgement link works. */
export const ACK_LINK_DAYS = 30
const DAY_MS = 86_400_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Signed acknowledgement links of manager escalations (decision 0027): the token names the
 * notice and when the link ends, signed with an HMAC key kept in certs' database (made once, shared
 * by every instance). Single use is the log row's `acknowledged_at`, set once.
 */
export function createAckSigner(orm: MikroORM) {
  let key: Promise<Buffer> | undefined
  const loadKey = () =>
    (key ??= (async () => {
      const value = await notificationRepository.ackKey(orm.em.fork(), randomBytes(32).toString('base64'))
      return Buffer.from(value, 'base64')
    })().catch((err) => {
      key = undefined
      throw err
    }))
  const mac = (k: Buffer, body: string) => createHmac('sha256', k).update(body).digest('base64url')

  return {
    /**
     * Loads the key outside the run's transactions: on PGlite's single connection, a query of its
     * own inside a transaction would wait for that transaction forever.
     */
    prepare: async (): Promise<void> => void (await loadKey()),
    /** A token for `noticeId`, valid until `at` + 30 days. */
    async sign(noticeId: string, at: Date): Promise<string> {
      const body = `${noticeId}.${(at.getTime() + ACK_LINK_DAYS * DAY_MS).toString(36)}`
      return `${body}.${mac(await loadKey(), body)}`
    },
    /** The notice id of a good, unexpired token; null otherwise. */
    async verify(token: string, at: Date): Promise<string | null> {
      const [noticeId, until, sig] = token.split('.')
      if (!noticeId || !until || !sig || !UUID.test(noticeId)) return null
      const expected = Buffer.from(mac(await loadKey(), `${noticeId}.${until}`))
      const given = Buffer.from(sig)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
      if (parseInt(until, 36) < at.getTime()) return null
      return noticeId
    },
  }
}
export type AckSigner = ReturnType<typeof createAckSigner>
