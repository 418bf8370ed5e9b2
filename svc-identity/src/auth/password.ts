import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import type { ScheduledHasher } from '../shared/index.ts'
import type { KdfScheduler } from './kdf-scheduler.ts'

/** scrypt cost parameters; the production values are the one place they are set. */
export interface KdfParams {
  N: number
  r: number
  p: number
}

/** Memory-hard: 128 * N * r = 32 MiB per hash. */
export const DEFAULT_KDF: KdfParams = { N: 2 ** 15, r: 8, p: 1 }
const SALT_BYTES = 16
const KEY_BYTES = 32

const scrypt = (password: string, salt: Buffer, params: KdfParams) =>
  new Promise<Buffer>((resolve, reject) => {
    const opts: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * params.p + 16 * 1024 * 1024 }
    scryptCb(password.normalize('NFKC'), salt, KEY_BYTES, opts, (err, key) => (err ? reject(err) : resolve(key)))
  })

export interface PasswordHasher {
  /** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
  hash(password: string): Promise<string>
  /** Compares in constant time; a malformed stored value never matches. */
  verify(password: string, stored: string): Promise<boolean>
  /** Spends the time of one verification, for unknown accounts (no timing leak). */
  dummyVerify(password: string): Promise<void>
}

export function createPasswordHasher(params: KdfParams = DEFAULT_KDF): PasswordHasher {
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_BYTES)
    const key = await scrypt(password, salt, params)
    return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
  }
  const verify = async (password: string, stored: string) => {
    const parts = stored.split('$')
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
    if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false
    const expected = Buffer.from(parts[5]!, 'base64url')
    const actual = await scrypt(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p })
    return expected.length === actual.length && timingSafeEqual(expected, actual)
  }
  let dummy: Promise<string> | undefined
  return {
    hash,
    verify,
    async dummyVerify(password) {
      dummy ??= hash('not-a-real-password')
      await verify(password, await dummy)
    },
  }
}

/** `hasher` with its hashes run by `scheduler` (bounded, known browsers first; see kdf-scheduler.ts). */
export function scheduleKdf(hasher: PasswordHasher, scheduler: KdfScheduler): ScheduledHasher {
  return {
    enter(lane) {
      const turn = scheduler.enter(lane)
      return {
        hash: (password) => turn.run(() => hasher.hash(password)),
        verify: (password, stored) => turn.run(() => hasher.verify(password, stored)),
        dummyVerify: (password) => turn.run(() => hasher.dummyVerify(password)),
        leave: turn.leave,
      }
    },
  }
}
