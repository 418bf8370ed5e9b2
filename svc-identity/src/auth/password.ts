import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'

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

/** Thrown when every key-derivation slot and queue place is taken (answered 429 before any hashing). */
export class KdfBusy extends Error {
  constructor() {
    super('password hashing is at capacity')
  }
}

/** How much key derivation may run at once, and how many may wait for a slot. */
export interface KdfGateOptions {
  concurrency: number
  queue: number
}

/**
 * The hasher with bounded key derivation: at most `concurrency` hashes run (each holds 32 MiB and a
 * libuv thread), at most `queue` wait, and the rest fail at once with `KdfBusy`. A flood of
 * sign-ins then costs everyone else at most one queue's wait, never minutes.
 */
export function gateKdf(hasher: PasswordHasher, opts: KdfGateOptions): PasswordHasher & { readonly active: number; readonly waiting: number } {
  let active = 0
  const waiting: (() => void)[] = []
  const acquire = (): Promise<void> | void => {
    if (active < opts.concurrency) {
      active++
      return
    }
    if (waiting.length >= opts.queue) throw new KdfBusy()
    return new Promise<void>((resolve) => waiting.push(resolve))
  }
  const release = () => {
    const next = waiting.shift()
    if (next) next() // the slot passes straight to the next in line
    else active--
  }
  const gated =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await acquire()
      try {
        return await fn(...args)
      } finally {
        release()
      }
    }
  return {
    hash: gated(hasher.hash),
    verify: gated(hasher.verify),
    dummyVerify: gated(hasher.dummyVerify),
    get active() {
      return active
    },
    get waiting() {
      return waiting.length
    },
  }
}
