import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PlatformEnv, parseEnv } from './env.ts'
import { SecretUnreadable, createSecretBox, loadOrCreateKeyFile, loadSecretBox, loadServiceSecretBox, parseSecretsKey } from './secret-box.ts'

const key = () => new Uint8Array(randomBytes(32))
const text = (k: Uint8Array) => Buffer.from(k).toString('base64url')
const dirs: string[] = []
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'secret-box-'))
  dirs.push(dir)
  return dir
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('createSecretBox', () => {
  it('seals so that the stored text holds nothing of the secret, a new nonce each time, and opens it again', () => {
    const box = createSecretBox(key())
    const a = box.seal('client-secret-Ünïcode ✓', 'providers.client_secret')
    const b = box.seal('client-secret-Ünïcode ✓', 'providers.client_secret')
    expect(a).toMatch(/^sealed:v1:[A-Za-z0-9_-]{11}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/)
    expect(a).not.toContain('client-secret')
    expect(a).not.toBe(b)
    expect(box.open(a, 'providers.client_secret')).toBe('client-secret-Ünïcode ✓')
    expect(box.open(box.seal('', 'c'), 'c')).toBe('')
    expect(box.stale(a)).toBe(false)
  })

  it('refuses a value altered, moved to another column, or sealed under a key it was not given', () => {
    const box = createSecretBox(key())
    const sealed = box.seal('s3cret', 'lrs.password')
    const parts = sealed.split(':')
    const body = Buffer.from(parts[4]!, 'base64url')
    body[0]! ^= 1
    const altered = [...parts.slice(0, 4), body.toString('base64url')].join(':')
    expect(() => box.open(altered, 'lrs.password')).toThrow(SecretUnreadable)
    expect(() => box.open(sealed, 'providers.client_secret')).toThrow(/cannot be read: it is damaged or belongs to another column/)
    expect(() => box.open(`${parts.slice(0, 4).join(':')}:AAAA`, 'lrs.password')).toThrow(/damaged/)
    expect(() => createSecretBox(key()).open(sealed, 'lrs.password')).toThrow(/sealed under a key this service was not given/)
  })

  it('opens what an earlier key sealed while it is being rotated out, and calls it stale; a value stored plain passes through, stale', () => {
    const old = key()
    const before = createSecretBox(old).seal('s3cret', 'c')
    const rotated = createSecretBox(key(), [old])
    expect(rotated.open(before, 'c')).toBe('s3cret')
    expect(rotated.stale(before)).toBe(true)
    expect(rotated.stale(rotated.seal('s3cret', 'c'))).toBe(false)
    expect(rotated.open('stored before sealing', 'c')).toBe('stored before sealing')
    expect(rotated.stale('stored before sealing')).toBe(true)
    // Nothing stored: nothing to seal.
    expect(rotated.stale('')).toBe(false)
  })
})

describe('keys', () => {
  it('takes a key of exactly 32 bytes in base64url, in the box and in the environment', () => {
    expect(parseSecretsKey(text(key()))).toHaveLength(32)
    expect(() => parseSecretsKey(Buffer.alloc(16).toString('base64url'))).toThrow(/32 bytes/)
    const good = text(key())
    expect(parseEnv(PlatformEnv, { SECRETS_KEY: good, SECRETS_KEY_PREVIOUS: `${text(key())}, ${text(key())}` })).toMatchObject({ SECRETS_KEY: good })
    expect(() => parseEnv(PlatformEnv, { SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY: must be base64url of 32 random bytes/)
    expect(() => parseEnv(PlatformEnv, { SECRETS_KEY_PREVIOUS: `${good},short` })).toThrow(/SECRETS_KEY_PREVIOUS: must be base64url keys of 32 bytes/)
  })

  it('makes a key file once (0600), the same key for processes starting at once, and refuses one that holds no key', async () => {
    const dir = await tempDir()
    const file = join(dir, 'svc', 'secrets.key')
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateKeyFile(file)))
    for (const k of keys) expect(text(k)).toBe(text(keys[0]!))
    expect(keys[0]).toHaveLength(32)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await readFile(file, 'utf8')).trim()).toBe(text(keys[0]!))

    const bad = join(dir, 'bad.key')
    await writeFile(bad, 'not a key')
    await expect(loadSecretBox({ file: bad })).rejects.toThrow(/does not hold a 32-byte key/)
  })

  it('uses SECRETS_KEY over the key file, and SECRETS_KEY_PREVIOUS to open what the file key sealed', async () => {
    const dir = await tempDir()
    const fromFile = await loadServiceSecretBox({ DATA_DIR: dir }, 'learning')
    const sealed = fromFile.seal('s3cret', 'c')
    const again = await loadServiceSecretBox({ DATA_DIR: dir }, 'learning')
    expect(again.open(sealed, 'c')).toBe('s3cret')

    const fileKey = (await readFile(join(dir, 'learning', 'secrets.key'), 'utf8')).trim()
    const fromEnv = await loadServiceSecretBox({ DATA_DIR: dir, SECRETS_KEY: text(key()) }, 'learning')
    expect(() => fromEnv.open(sealed, 'c')).toThrow(SecretUnreadable)
    const rotating = await loadServiceSecretBox({ DATA_DIR: dir, SECRETS_KEY: text(key()), SECRETS_KEY_PREVIOUS: fileKey }, 'learning')
    expect(rotating.open(sealed, 'c')).toBe('s3cret')
    expect(rotating.stale(sealed)).toBe(true)
  })
})
