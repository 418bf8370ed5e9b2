import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { withAppMiddleware } from './app-scope.ts'
import { authenticate, createTokenIssuer, createTokenVerifier, loadOrCreateSigningKey, type Actor, type TokenIssuer } from './auth.ts'
import { openDatabase, type Database } from './db.ts'
import { createServiceApp, listen, ownBodyLimit, readBodyText } from './http.ts'
import { IDEMPOTENCY_MAX_KEPT_BYTES, createIdempotencyExpiry, expireIdempotencyKeys, idempotency } from './idempotency.ts'
import { createTestDatabase, silentLogger, sqlOf } from './testing.ts'

const ISSUER = { issuer: 'portal-test', audience: 'portal-test' }

/** A user's signed token. */
const tokenOf = (issuer: TokenIssuer, name: string) => {
  const actor: Actor = { userId: crypto.randomUUID(), email: `${name}@acme.test`, name, isAdmin: false, isManager: false, managerScope: { branches: [], departments: [] } }
  return issuer.sign(actor)
}

/**
 * A probe service app on `db`, made as `defineService` makes every service's: the middleware in
 * scope while the app is built. Each write route inserts a row into `probe_writes` (the side
 * effect counted); `/slow` waits for `release()` first, `/flaky` fails with a 500 while `failing`.
 */
async function probeApp(db: Database, issuer: TokenIssuer) {
  const sql = sqlOf(db.orm)
  await sql('create table if not exists probe_writes (id uuid primary key, route text not null, body text not null)')
  const verifier = createTokenVerifier(issuer.jwks(), ISSUER)
  const state = { failing: true, gate: Promise.resolve(), release: () => undefined as void }
  const write = async (route: string, body: string) => {
    const id = crypto.randomUUID()
    await sql('insert into probe_writes (id, route, body) values (?, ?, ?)', [id, route, body])
    return id
  }
  const app = withAppMiddleware([idempotency({ orm: db.orm, verifier, logger: silentLogger })], () => createServiceApp({ service: 'kit_probe', logger: silentLogger }))
  const auth = authenticate(verifier)
  app.post('/items', auth, async (c) => {
    const id = await write('items', await c.req.text())
    c.header('Location', `/items/${id}`)
    c.header('X-Not-Kept', 'yes')
    return c.json({ id, got: await c.req.json() }, 201)
  })
  app.delete('/items/:id', auth, async (c) => {
    await write('delete', c.req.param('id'))
    return c.body(null, 204)
  })
  app.post('/slow', auth, async (c) => {
    await state.gate
    return c.json({ id: await write('slow', await c.req.text()) }, 201)
  })
  app.post('/flaky', auth, async (c) => {
    const id = await write('flaky', await c.req.text())
    if (state.failing) throw new Error('the disk is on fire')
    return c.json({ id }, 201)
  })
  app.post('/refused', auth, async (c) => {
    await write('refused', await c.req.text())
    return c.json({ message: 'No such course', code: 'not_found' }, 404)
  })
  app.post('/file', auth, async (c) => {
    await write('file', await c.req.text())
    return c.body(new Uint8Array([1, 2, 3]), 200, { 'Content-Type': 'application/pdf' })
  })
  app.post('/large', auth, async (c) => {
    await write('large', await c.req.text())
    return c.json({ text: 'x'.repeat(IDEMPOTENCY_MAX_KEPT_BYTES) })
  })
  app.post('/session', async (c) => {
    await write('session', await c.req.text())
    c.header('Set-Cookie', 'refresh=secret; HttpOnly')
    return c.json({ accessToken: 'secret' })
  })
  app.post('/public', async (c) => c.json({ id: await write('public', await c.req.text()) }, 201))
  app.post('/form', auth, async (c) => {
    const form = await c.req.parseBody()
    return c.json({ id: await write('form', String(form.name)) }, 201)
  })
  app.post('/raw', auth, ownBodyLimit, async (c) => c.json({ id: await write('raw', await readBodyText(c, 1024)) }, 201))
  const hold = () => {
    state.gate = new Promise<void>((r) => (state.release = r))
  }
  const writes = async (route: string) => Number((await sql<{ n: number }>('select count(*)::int as n from probe_writes where route = ?', [route]))[0]!.n)
  return { app, state, hold, writes, sql }
}

type Probe = Awaited<ReturnType<typeof probeApp>>

/** Calls the probe: a JSON body (or `raw`), a bearer token, an Idempotency-Key. */
const caller =
  (probe: () => Probe) =>
  async (method: string, path: string, o: { token?: string; key?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    if (o.key !== undefined) headers['idempotency-key'] = o.key
    if (o.body !== undefined) headers['content-type'] = 'application/json'
    const res = await probe().app.request(path, { method, headers, body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)) })
    const text = await res.text()
    return { status: res.status, text, json: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined, headers: res.headers }
  }

// The same behaviour on the machine's PostgreSQL and on embedded PGlite (single-node mode: a pool
// of one connection, so nothing may hold it while the route runs).
describe.each(['postgres', 'pglite'] as const)('Idempotency-Key on %s', (kind) => {
  let db: Database
  let issuer: TokenIssuer
  let probe: Probe
  let alice: string
  let bob: string
  const cleanup: (() => Promise<void>)[] = []
  const call = caller(() => probe)
  let n = 0
  const newKey = () => `key-${kind}-${++n}-${crypto.randomUUID()}`

  beforeAll(async () => {
    if (kind === 'postgres') {
      const testDb = await createTestDatabase('kit_idempotency')
      cleanup.push(testDb.drop)
      db = await openDatabase({ service: 'kit_idempotency', url: testDb.url, dataDir: '/tmp/unused', entities: [], migrations: [], logger: silentLogger })
    } else {
      const dataDir = await mkdtemp(join(tmpdir(), 'kit-idempotency-'))
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
      db = await openDatabase({ service: 'kit_idempotency', dataDir, entities: [], migrations: [], logger: silentLogger })
      expect(db.embedded).toBe(true)
    }
    issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { ...ISSUER, ttlSeconds: 600 })
    probe = await probeApp(db, issuer)
    alice = await tokenOf(issuer, 'alice')
    bob = await tokenOf(issuer, 'bob')
  })
  afterAll(async () => {
    await db?.close()
    for (const step of cleanup.reverse()) await step()
  })

  it('does the first request, keeps its answer and replays it byte for byte without doing it again', async () => {
    const key = newKey()
    const first = await call('POST', '/items', { token: alice, key, body: { name: 'Ladder' } })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await call('POST', '/items', { token: alice, key, body: { name: 'Ladder' } })
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
    expect(again.headers.get('location')).toBe(`/items/${first.json.id}`)
    // Only Content-Type and Location are kept; the request's own id is the repeat's.
    expect(again.headers.get('x-not-kept')).toBeNull()
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    expect(await probe.writes('items')).toBe(1)
    const [row] = await probe.sql('select status, kept, caller, method, path from idempotency_keys where key = ?', [key])
    expect(row).toMatchObject({ status: 201, kept: true, method: 'POST', path: '/items' })
    expect(row.caller).toMatch(/^user:/)
  })

  it('does a write without a key every time', async () => {
    const before = await probe.writes('items')
    await call('POST', '/items', { token: alice, body: { name: 'A' } })
    await call('POST', '/items', { token: alice, body: { name: 'A' } })
    expect(await probe.writes('items')).toBe(before + 2)
  })

  it('replays an answer without a body (204) as it was', async () => {
    const key = newKey()
    const first = await call('DELETE', '/items/x1', { token: alice, key })
    const again = await call('DELETE', '/items/x1', { token: alice, key })
    expect([first.status, again.status]).toEqual([204, 204])
    expect(again.text).toBe('')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await probe.writes('delete')).toBe(1)
  })

  it('answers a repeat while the first still runs with 409 idempotency_in_progress, then replays the first', async () => {
    const key = newKey()
    probe.hold()
    const first = call('POST', '/slow', { token: alice, key, body: { n: 1 } })
    await vi.waitFor(async () => expect((await probe.sql('select 1 from idempotency_keys where key = ?', [key])).length).toBe(1))
    const during = await call('POST', '/slow', { token: alice, key, body: { n: 1 } })
    expect(during.status).toBe(409)
    expect(during.json).toEqual({ code: 'idempotency_in_progress', message: expect.stringMatching(/being processed/) })
    expect(during.headers.get('retry-after')).toBe('1')
    probe.state.release()
    expect((await first).status).toBe(201)
    const after = await call('POST', '/slow', { token: alice, key, body: { n: 1 } })
    expect(after.status).toBe(201)
    expect(after.text).toBe((await first).text)
    expect(await probe.writes('slow')).toBe(1)
  })

  it('answers the same key with another body or query with 422 idempotency_key_reused', async () => {
    const key = newKey()
    expect((await call('POST', '/items', { token: alice, key, body: { name: 'A' } })).status).toBe(201)
    const other = await call('POST', '/items', { token: alice, key, body: { name: 'B' } })
    expect(other.status).toBe(422)
    expect(other.json).toEqual({ code: 'idempotency_key_reused', message: expect.stringMatching(/different request/) })
    expect((await call('POST', '/items?dryRun=1', { token: alice, key, body: { name: 'A' } })).status).toBe(422)
    expect(await probe.sql('select 1 from probe_writes where route = ? and body like ?', ['items', '%"B"%'])).toEqual([])
  })

  it('keeps no 5xx: the key is freed and a retry runs; the retry that succeeds is kept', async () => {
    const key = newKey()
    probe.state.failing = true
    const failed = await call('POST', '/flaky', { token: alice, key, body: { n: 1 } })
    expect(failed.status).toBe(500)
    expect(await probe.sql('select 1 from idempotency_keys where key = ?', [key])).toEqual([])
    probe.state.failing = false
    const retried = await call('POST', '/flaky', { token: alice, key, body: { n: 1 } })
    expect(retried.status).toBe(201)
    const again = await call('POST', '/flaky', { token: alice, key, body: { n: 1 } })
    expect(again.text).toBe(retried.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await probe.writes('flaky')).toBe(2)
  })

  it('keeps a 4xx the route gave and replays it', async () => {
    const key = newKey()
    const first = await call('POST', '/refused', { token: alice, key, body: {} })
    const again = await call('POST', '/refused', { token: alice, key, body: {} })
    expect([first.status, again.status]).toEqual([404, 404])
    expect(again.json).toEqual({ message: 'No such course', code: 'not_found' })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await probe.writes('refused')).toBe(1)
  })

  it("keeps each caller's key apart: another user, or another address without a token, runs its own", async () => {
    const key = newKey()
    const a = await call('POST', '/items', { token: alice, key, body: { name: 'Same' } })
    const b = await call('POST', '/items', { token: bob, key, body: { name: 'Same' } })
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.json.id).not.toBe(a.json.id)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    const from = (address: string) => call('POST', '/public', { key, body: {}, headers: { 'x-forwarded-for': address } })
    const one = await from('203.0.113.7')
    const two = await from('203.0.113.8')
    const oneAgain = await from('203.0.113.7')
    expect(two.json.id).not.toBe(one.json.id)
    expect(oneAgain.text).toBe(one.text)
    const callers = (await probe.sql<{ caller: string }>('select caller from idempotency_keys where key = ? order by caller', [key])).map((r) => r.caller)
    expect(callers).toHaveLength(4)
    expect(callers.filter((c) => c.startsWith('user:'))).toHaveLength(2)
    expect(callers.filter((c) => c.startsWith('address:'))).toEqual(['address:203.0.113.7', 'address:203.0.113.8'])
    expect(await probe.writes('public')).toBe(2)
  })

  it('answers a bad key with 400 invalid_idempotency_key and does nothing', async () => {
    const before = await probe.writes('items')
    for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\there']) {
      const res = await call('POST', '/items', { token: alice, key: bad, body: { name: 'A' } })
      expect(res.status, bad).toBe(400)
      expect(res.json).toEqual({ code: 'invalid_idempotency_key', message: expect.stringMatching(/1 to 255 visible ASCII/) })
    }
    expect(await probe.writes('items')).toBe(before)
    expect((await call('POST', '/items', { token: alice, key: `"${'k'.repeat(253)}"`, body: { name: 'A' } })).status).toBe(201)
  })

  it('leaves a token that does not verify to the route (401) and records nothing', async () => {
    const key = newKey()
    const res = await call('POST', '/items', { token: 'not-a-token', key, body: {} })
    expect(res.status).toBe(401)
    expect(await probe.sql('select 1 from idempotency_keys where key = ?', [key])).toEqual([])
  })

  it('does not keep a file, a large answer or one that sets a cookie: a repeat is 409 idempotency_answer_not_kept, not done again', async () => {
    for (const [path, token] of [
      ['/file', alice],
      ['/large', alice],
      ['/session', undefined],
    ] as const) {
      const key = newKey()
      const first = await call('POST', path, { token, key, body: { path } })
      expect(first.status, path).toBe(200)
      const again = await call('POST', path, { token, key, body: { path } })
      expect(again.status, path).toBe(409)
      expect(again.json).toEqual({ code: 'idempotency_answer_not_kept', message: expect.stringMatching(/not kept/) })
      const [row] = await probe.sql('select status, kept, body from idempotency_keys where key = ?', [key])
      expect(row).toEqual({ status: 200, kept: false, body: null })
    }
    expect([await probe.writes('file'), await probe.writes('large'), await probe.writes('session')]).toEqual([1, 1, 1])
  })

  it('hands the route the body it fingerprinted: a form, and a body read by hand (ownBodyLimit)', async () => {
    const key = newKey()
    const form = () => {
      const f = new FormData()
      f.append('name', 'Harness')
      return f
    }
    const first = await call('POST', '/form', { token: alice, key, raw: form() })
    expect(first.status).toBe(201)
    expect((await call('POST', '/form', { token: alice, key, raw: form() })).headers.get('idempotent-replayed')).toBe('true')
    expect(await probe.sql('select body from probe_writes where route = ?', ['form'])).toEqual([{ body: 'Harness' }])
    const rawKey = newKey()
    const raw = await call('POST', '/raw', { token: alice, key: rawKey, raw: 'plain text', headers: { 'content-type': 'text/plain' } })
    expect(raw.status).toBe(201)
    expect((await call('POST', '/raw', { token: alice, key: rawKey, raw: 'plain text', headers: { 'content-type': 'text/plain' } })).text).toBe(raw.text)
    expect(await probe.sql('select body from probe_writes where route = ?', ['raw'])).toEqual([{ body: 'plain text' }])
  })

  it("works the same through Node's server: a JSON write, a form and a body read by hand, each done once", async () => {
    const server = await listen(probe.app, 0)
    try {
      const send = async (path: string, key: string, body: BodyInit, contentType?: string) => {
        const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${alice}`, 'idempotency-key': key, ...(contentType ? { 'content-type': contentType } : {}) },
          body,
        })
        return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') }
      }
      const form = () => {
        const f = new FormData()
        f.append('name', 'Over HTTP')
        return f
      }
      const before = await Promise.all(['items', 'form', 'raw'].map((r) => probe.writes(r)))
      for (const [path, body, type] of [
        ['/items', () => JSON.stringify({ name: 'Over HTTP' }), 'application/json'],
        ['/form', form, undefined],
        ['/raw', () => 'over http', 'text/plain'],
      ] as const) {
        const key = newKey()
        const first = await send(path, key, body(), type)
        const again = await send(path, key, body(), type)
        expect([first.status, again.status, first.replayed, again.replayed], path).toEqual([201, 201, null, 'true'])
        expect(again.text).toBe(first.text)
      }
      expect(await Promise.all(['items', 'form', 'raw'].map((r) => probe.writes(r)))).toEqual(before.map((n) => n + 1))
      expect(await probe.sql('select body from probe_writes where route = ? and body = ?', ['raw', 'over http'])).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('takes a key in progress for over 15 minutes as lost, and one older than 24 hours as new', async () => {
    const lost = newKey()
    await call('POST', '/items', { token: alice, key: lost, body: { n: 1 } })
    await probe.sql("update idempotency_keys set status = null, created_at = now() - interval '16 minutes' where key = ?", [lost])
    expect((await call('POST', '/items', { token: alice, key: lost, body: { n: 1 } })).headers.get('idempotent-replayed')).toBeNull()
    const old = newKey()
    await call('POST', '/items', { token: alice, key: old, body: { n: 1 } })
    await probe.sql("update idempotency_keys set created_at = now() - interval '25 hours' where key = ?", [old])
    // Even with another body: the old record is forgotten.
    expect((await call('POST', '/items', { token: alice, key: old, body: { n: 2 } })).status).toBe(201)
    const [row] = await probe.sql("select status, created_at > now() - interval '1 minute' as fresh from idempotency_keys where key = ?", [old])
    expect(row).toEqual({ status: 201, fresh: true })
  })

  it('deletes the records older than 24 hours in its hourly chore', async () => {
    const [old, recent] = [newKey(), newKey()]
    await call('POST', '/items', { token: alice, key: old, body: {} })
    await call('POST', '/items', { token: alice, key: recent, body: {} })
    await probe.sql("update idempotency_keys set created_at = now() - interval '24 hours 1 minute' where key = ?", [old])
    const expiry = createIdempotencyExpiry({ orm: db.orm, logger: silentLogger })
    expect(await expiry.runNow()).toBeGreaterThanOrEqual(1)
    await expiry.stop()
    expect((await probe.sql('select key from idempotency_keys where key in (?, ?)', [old, recent])).map((r) => r.key)).toEqual([recent])
    expect(await expireIdempotencyKeys(db.orm)).toBe(0)
  })
})
