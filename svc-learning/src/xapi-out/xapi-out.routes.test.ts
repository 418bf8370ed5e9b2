import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditEntriesResponse, LrsForwarding, LrsTestResult } from '@portal/contracts'
import { createSecretBox } from '@portal/server-kit'
import { freePort, silentLogger } from '@portal/server-kit/testing'
import { randomBytes } from 'node:crypto'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { createStatementSender } from './forwarder.ts'
import { PASSWORD_COLUMN } from './forwarding.repository.ts'
import { startTestLrs, type TestLrs } from './lrs.test-support.ts'
import { resealLrsPassword } from './xapi-out.service.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let lrs: TestLrs
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin' })
  tech = await h.user()
  lrs = await startTestLrs({ username: 'portal', password: 's3cret' })
})
afterAll(async () => {
  await lrs?.close()
  await h?.close()
})

const put = (body: unknown, token = admin.token) => h.call('PUT', '/admin/lrs-forwarding', { token, body })

describe('the LRS forwarding settings (admin API)', () => {
  it('is for admins only, whatever the input', async () => {
    expect((await h.call('GET', '/admin/lrs-forwarding')).status).toBe(401)
    expect((await h.call('GET', '/admin/lrs-forwarding', { token: tech.token })).status).toBe(403)
    // Access first: a learner's bad input is refused as a learner's, not validated.
    expect((await put({ endpoint: 'nope' }, tech.token)).status).toBe(403)
    expect((await h.call('POST', '/admin/lrs-forwarding/test', { token: tech.token })).status).toBe(403)
  })

  it('starts empty and off', async () => {
    const got = await h.call('GET', '/admin/lrs-forwarding', { token: admin.token })
    expect(got).toEqual({
      status: 200,
      body: {
        endpoint: '',
        username: '',
        has_password: false,
        enabled: false,
        last_sent_at: null,
        last_error: null,
        last_error_at: null,
        updated_at: null,
        waiting: 0,
        oldest_waiting_since: null,
      },
    })
    // Nothing to test yet.
    expect(await h.call('POST', '/admin/lrs-forwarding/test', { token: admin.token })).toMatchObject({ status: 400, body: { code: 'no_endpoint' } })
  })

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const ok = { endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: true }
    const cases: [unknown, string][] = [
      [{ ...ok, endpoint: 'ftp://lrs.example.com/xapi' }, 'http:// or https://'],
      [{ ...ok, endpoint: 'not a url' }, 'http:// or https://'],
      [{ ...ok, endpoint: '' }, 'An endpoint is required'],
      [{ ...ok, username: 'a:b' }, 'colon'],
      [{ ...ok, enabled: 'yes' }, 'enabled'],
      [{ ...ok, extra: 1 }, 'extra'],
      [{ ...ok, password: 'x'.repeat(501) }, 'at most 500'],
    ]
    for (const [body, words] of cases) {
      const res = await put(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(res.body)).toContain(words)
    }
    expect((await h.call('GET', '/admin/lrs-forwarding', { token: admin.token })).body).toMatchObject({ endpoint: '', has_password: false })
  })

  it('saves the settings, never returns the password, keeps it when left blank, and audits the change without it', async () => {
    const saved = await put({ endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: true })
    expect(saved.status).toBe(200)
    expect(LrsForwarding.parse(saved.body)).toMatchObject({ endpoint: lrs.endpoint, username: 'portal', has_password: true, enabled: true })
    expect(JSON.stringify(saved.body)).not.toContain('s3cret')
    // Blank (or absent) password: the stored one stays.
    const again = await put({ endpoint: lrs.endpoint, username: 'portal', password: '', enabled: false })
    expect(again.body).toMatchObject({ has_password: true, enabled: false })
    expect((await put({ endpoint: lrs.endpoint, username: 'portal', enabled: true })).body).toMatchObject({ has_password: true, enabled: true })
    const got = await h.call('GET', '/admin/lrs-forwarding', { token: admin.token })
    expect(JSON.stringify(got.body)).not.toContain('s3cret')
    const trail = AuditEntriesResponse.parse((await h.call('GET', '/admin/audit/learning?action=lrs_forwarding.updated', { token: admin.token })).body)
    expect(trail.map((e) => [e.actor_name, e.action, e.target])).toEqual([
      ['Ada Admin', 'lrs_forwarding.updated', 'Learning Record Store'],
      ['Ada Admin', 'lrs_forwarding.updated', 'Learning Record Store'],
      ['Ada Admin', 'lrs_forwarding.updated', 'Learning Record Store'],
    ])
    expect(JSON.stringify(trail)).not.toContain('s3cret')
    expect(trail[0]!.details).toMatchObject({ endpoint: lrs.endpoint, has_password: true, enabled: true })
  })

  it('tests the connection: the LRS’s about with the stored credentials, or why not', async () => {
    await put({ endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: true })
    const ok = LrsTestResult.parse((await h.call('POST', '/admin/lrs-forwarding/test', { token: admin.token })).body)
    expect(ok).toEqual({ ok: true, status: 200, message: 'Connected: the LRS answered (xAPI 1.0.3)', versions: ['1.0.3'] })
    expect(lrs.auth.at(-1)).toBe(`Basic ${Buffer.from('portal:s3cret').toString('base64')}`)
    await put({ endpoint: lrs.endpoint, username: 'portal', password: 'wrong', enabled: true })
    expect((await h.call('POST', '/admin/lrs-forwarding/test', { token: admin.token })).body).toMatchObject({
      ok: false,
      status: 401,
      message: 'The LRS refused the username or password (401)',
    })
    await put({ endpoint: `http://127.0.0.1:${await freePort()}/xapi`, username: 'portal', enabled: true })
    const down = LrsTestResult.parse((await h.call('POST', '/admin/lrs-forwarding/test', { token: admin.token })).body)
    expect(down).toMatchObject({ ok: false, status: null })
    expect(down.message).toMatch(/could not reach the LRS \(ECONNREFUSED\)/)
  })
})

describe('the stored LRS password (decision 0055)', () => {
  const row = async () => (await h.sql<{ password: string }>('select password from lrs_forwarding where id = 1'))[0]!.password
  const test = async () => LrsTestResult.parse((await h.call('POST', '/admin/lrs-forwarding/test', { token: admin.token })).body)

  it('is kept sealed; one stored plain before sealing still works and is sealed at start; one sealed under a lost key is asked for again', async () => {
    await put({ endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: true })
    expect(await row()).toMatch(/^sealed:v1:/)
    expect(await row()).not.toContain('s3cret')
    expect((await test()).ok).toBe(true)
    expect(lrs.auth.at(-1)).toBe(`Basic ${Buffer.from('portal:s3cret').toString('base64')}`)

    // Stored plain by an earlier version: used as it is, then sealed by the start-up pass (once).
    await h.sql("update lrs_forwarding set password = 's3cret' where id = 1")
    expect((await test()).ok).toBe(true)
    await resealLrsPassword(h.orm, h.ctx.secrets, silentLogger)
    const sealed = await row()
    expect(sealed).toMatch(/^sealed:v1:/)
    expect((await test()).ok).toBe(true)
    await resealLrsPassword(h.orm, h.ctx.secrets, silentLogger)
    expect(await row()).toBe(sealed)

    // Sealed under a key this service was not given: the test and the sender say so; nothing is sent.
    await h.sql('update lrs_forwarding set password = ? where id = 1', [createSecretBox(new Uint8Array(randomBytes(32))).seal('s3cret', PASSWORD_COLUMN)])
    const calls = lrs.auth.length
    expect(await test()).toEqual({ ok: false, status: null, message: 'The stored password cannot be read with this server’s secrets key: enter it again', versions: [] })
    await resealLrsPassword(h.orm, h.ctx.secrets, silentLogger)
    expect(await row()).not.toBe(sealed)
    await h.sql("insert into xapi_forward_queue (statement_id, event_id, statement) values (?, ?, '{}'::jsonb)", [crypto.randomUUID(), crypto.randomUUID()])
    const sender = createStatementSender({ orm: h.orm, logger: silentLogger, secrets: h.ctx.secrets, backoff: { baseMs: 10, maxMs: 10 } })
    await sender.runNow()
    expect((await h.call('GET', '/admin/lrs-forwarding', { token: admin.token })).body).toMatchObject({
      has_password: true,
      last_error: 'The stored password cannot be read with this server’s secrets key: enter it again',
      waiting: 1,
    })
    expect(lrs.auth.length).toBe(calls)
    expect(await h.sql('select count(*)::int as n from xapi_forward_queue')).toEqual([{ n: 1 }])

    // Entered again: sealed under the current key, and it works.
    await put({ endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: false })
    expect((await test()).ok).toBe(true)
    await h.sql('delete from xapi_forward_queue')
  })
})
