import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createInProcessBus } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { CHEAP_KDF } from './harness.test-support.ts'
import { IdentityProcessEnv, seedDemoData, start } from './server.ts'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('start() in single-node mode (embedded database)', () => {
  it('serves the app, seeds demo users once, keeps the key and the data across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'identity-'))
    dirs.push(dataDir)
    const env = PlatformEnv.parse({ DATA_DIR: dataDir, COMPANY_EMAIL_DOMAIN: 'acme.test', LOG_LEVEL: 'silent' })
    const bus = createInProcessBus()
    const seen: EventEnvelope[] = []
    await bus.subscribe('test', ['identity.>'], async (e) => void seen.push(e))

    const first = await start({ env, logger: silentLogger, bus, port: 0, kdf: CHEAP_KDF })
    const logins = await seedDemoData(first)
    expect(logins.map((l) => l.email)).toEqual([
      'admin@acme.test',
      'manager@acme.test',
      'tech.portland@acme.test',
      'tech.seattle@acme.test',
      'tech.anchorage@acme.test',
      'tech.tricities@acme.test',
      'new.hire@acme.test',
    ])
    expect(logins[0]).toEqual({ role: 'admin', email: 'admin@acme.test', password: 'Admin123!' })
    expect(await seedDemoData(first)).toEqual([])

    const base = `http://127.0.0.1:${first.port}`
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@acme.test', password: 'Manager123!' }),
    })
    expect(login.status).toBe(200)
    const { user } = (await login.json()) as { user: Record<string, unknown> }
    expect(user).toMatchObject({ is_manager: true, manager_scope: { branches: ['Portland'], departments: [] }, branch: 'Portland' })
    const jwks = (await (await fetch(first.jwksUrl)).json()) as { keys: { kid: string }[] }
    expect(jwks.keys).toHaveLength(1)
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    expect((await fetch(`${base}/readyz`)).status).toBe(200)

    await first.relay.flush()
    expect(seen.filter((e) => e.type === 'identity.user.registered.v1')).toHaveLength(7)
    const keyFile = JSON.parse(await readFile(join(dataDir, 'identity', 'jwt-private.jwk'), 'utf8')) as { kid: string }
    expect(keyFile.kid).toBe(jwks.keys[0]!.kid)
    await first.close()

    const second = await start({ env, logger: silentLogger, bus, port: 0, kdf: CHEAP_KDF })
    expect(await seedDemoData(second)).toEqual([])
    const again = (await (await fetch(second.jwksUrl)).json()) as { keys: { kid: string }[] }
    expect(again.keys[0]!.kid).toBe(keyFile.kid)
    const newHire = await second.app.request('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new.hire@acme.test', password: 'Welcome123!' }),
    })
    expect(((await newHire.json()) as { user: { branch: unknown } }).user.branch).toBeNull()
    await second.close()
    await bus.close()
  }, 60_000)
})

describe('IdentityProcessEnv', () => {
  it('listens on loopback unless HOST says otherwise (the gateway is the way in)', () => {
    expect(IdentityProcessEnv.parse({}).HOST).toBe('127.0.0.1')
    expect(IdentityProcessEnv.parse({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0')
  })
})
