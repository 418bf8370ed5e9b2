import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { PlatformEnv } from './env.ts'

/**
 * Secrets the portal must keep to use later (an OIDC client secret, an outside LRS's password)
 * are stored sealed: AES-256-GCM under a key that is not in the database (decision 0055). A
 * database dump or backup then holds no usable secret.
 *
 * A sealed value reads `sealed:v1:<key id>:<iv>:<ciphertext and tag>` (base64url parts). The key
 * id is the first 8 bytes of the key's SHA-256, so a value names the key it needs. The column it
 * belongs in is bound in as associated data: a value copied into another column does not open.
 */
const PREFIX = 'sealed:v1:'
const KEY_BYTES = 32

export interface SecretBox {
  /** `plain` sealed under the current key, for `column` (e.g. `lrs_forwarding.password`). */
  seal(plain: string, column: string): string
  /**
   * The plain text of a stored value. A value stored before sealing existed comes back as it is;
   * one sealed under a key this box lacks, or altered, throws `SecretUnreadable`.
   */
  open(stored: string, column: string): string
  /** Whether `stored` should be sealed again: plain, or sealed under a previous key. */
  stale(stored: string): boolean
  /** `stored` sealed again under the current key when `stale`, else null; throws `SecretUnreadable` as `open` does. */
  resealed(stored: string, column: string): string | null
}

/** A stored secret the box cannot open: sealed under a key it was not given, or altered. */
export class SecretUnreadable extends Error {
  constructor(column: string, why: string) {
    super(`the stored ${column} cannot be read: ${why}`)
    this.name = 'SecretUnreadable'
  }
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url')
const keyId = (key: Uint8Array) => b64(createHash('sha256').update(key).digest().subarray(0, 8))

/** Whether `text` is a key: base64url of exactly 32 bytes (what the environment's SECRETS_KEY* must hold). */
export const isSecretsKey = (text: string): boolean => Buffer.from(text.trim(), 'base64url').length === KEY_BYTES

/** A key given as base64url text: exactly 32 bytes. */
export function parseSecretsKey(text: string): Uint8Array {
  const key = Buffer.from(text.trim(), 'base64url')
  if (!isSecretsKey(text)) throw new Error(`a secrets key must be ${KEY_BYTES} bytes in base64url (e.g. \`openssl rand -base64 32 | tr '+/' '-_' | tr -d =\`)`)
  return new Uint8Array(key)
}

/** The box sealing under `current`, opening under it and any of `previous` (a key being rotated out). */
export function createSecretBox(current: Uint8Array, previous: Uint8Array[] = []): SecretBox {
  const currentId = keyId(current)
  const keys = new Map([...previous, current].map((k) => [keyId(k), k] as const))
  const box: SecretBox = {
    seal(plain, column) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', current, iv)
      cipher.setAAD(Buffer.from(column))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
      return `${PREFIX}${currentId}:${b64(iv)}:${b64(body)}`
    },
    open(stored, column) {
      if (!stored.startsWith(PREFIX)) return stored
      const [id, iv, body] = stored.slice(PREFIX.length).split(':')
      const key = id && keys.get(id)
      if (!key) throw new SecretUnreadable(column, 'it was sealed under a key this service was not given (SECRETS_KEY, SECRETS_KEY_PREVIOUS)')
      const data = Buffer.from(body ?? '', 'base64url')
      if (data.length < 16) throw new SecretUnreadable(column, 'it is damaged')
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'))
        decipher.setAAD(Buffer.from(column))
        decipher.setAuthTag(data.subarray(data.length - 16))
        return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
      } catch {
        throw new SecretUnreadable(column, 'it is damaged or belongs to another column')
      }
    },
    stale: (stored) => stored !== '' && !stored.startsWith(`${PREFIX}${currentId}:`),
    resealed: (stored, column) => (box.stale(stored) ? box.seal(box.open(stored, column), column) : null),
  }
  return box
}

/**
 * Reads a random key of `bytes` bytes (base64url text) from `file`, making it on first use (mode
 * 0600). Only a missing file means "make one": an unreadable key is never silently replaced. Two
 * processes starting at once agree on the one written first.
 */
export async function loadOrCreateKeyFile(file: string, bytes = KEY_BYTES): Promise<Uint8Array> {
  const read = () =>
    readFile(file, 'utf8').then(
      (text) => new Uint8Array(Buffer.from(text.trim(), 'base64url')),
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined
        throw err
      },
    )
  const found = await read()
  if (found) return found
  const key = randomBytes(bytes)
  await mkdir(dirname(file), { recursive: true })
  try {
    await writeFile(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' })
    return new Uint8Array(key)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  // Another process made it first: its key, once written.
  for (let i = 0; i < 50; i++) {
    const theirs = await read()
    if (theirs && theirs.length > 0) return theirs
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${file} stays empty`)
}

/**
 * The service's box: `SECRETS_KEY` (and `SECRETS_KEY_PREVIOUS`, comma-separated, while rotating)
 * when set, as every replica of a service on several machines needs; else a key file made under
 * DATA_DIR on first start (one machine: its replicas share DATA_DIR).
 */
export async function loadSecretBox(opts: { key?: string | undefined; previous?: string | undefined; file: string }): Promise<SecretBox> {
  const current = opts.key ? parseSecretsKey(opts.key) : await loadOrCreateKeyFile(opts.file)
  if (current.length !== KEY_BYTES) throw new Error(`${opts.file} does not hold a ${KEY_BYTES}-byte key`)
  const previous = (opts.previous ?? '')
    .split(',')
    .filter((k) => k.trim())
    .map(parseSecretsKey)
  return createSecretBox(current, previous)
}

/** A service's box from its environment, its key file at `<DATA_DIR>/<service>/secrets.key`. */
export const loadServiceSecretBox = (
  env: Pick<PlatformEnv, 'DATA_DIR'> & Partial<Pick<PlatformEnv, 'SECRETS_KEY' | 'SECRETS_KEY_PREVIOUS'>>,
  service: string,
): Promise<SecretBox> => loadSecretBox({ key: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS, file: join(env.DATA_DIR, service, 'secrets.key') })
