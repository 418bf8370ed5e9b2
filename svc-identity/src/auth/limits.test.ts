// The limits of the abuse-prone flows under concurrency, on both databases the limiter is stored in:
// the machine's PostgreSQL (cluster mode) and an embedded PGlite (single-node mode).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@portal/contracts'
import { ADMIN_CODE, CHEAP_KDF, createHarness, type Harness } from '../harness.test-support.ts'
import { AUTH_MESSAGES } from './auth.service.ts'
import { createPasswordHasher, type PasswordHasher } from './password.ts'

const uniqueEmail = (prefix = 'p') => `${prefix}.${Math.random().toString(36).slice(2, 9)}@acme.test`
const statuses = (results: { status: number }[]) => results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {})

/**
 * The password KDF with every call counted; with `laneMs`, calls run one at a time and take that
 * long each, as a real memory-hard KDF on a busy machine's few cores does.
 */
function instrumentedHasher(laneMs = 0) {
  const inner = createPasswordHasher(CHEAP_KDF)
  const counts = { hash: 0, verify: 0, dummyVerify: 0 }
  let lane = Promise.resolve()
  const busy = () => {
    if (!laneMs) return Promise.resolve()
    const turn = lane.then(() => new Promise<void>((r) => setTimeout(r, laneMs)))
    lane = turn
    return turn
  }
  const hasher: PasswordHasher = {
    hash: async (p) => (counts.hash++, await busy(), inner.hash(p)),
    verify: async (p, s) => (counts.verify++, await busy(), inner.verify(p, s)),
    dummyVerify: async (p) => (counts.dummyVerify++, await busy(), inner.dummyVerify(p)),
  }
  return { hasher, counts, checks: () => counts.verify + counts.dummyVerify }
}

for (const mode of ['postgresql', 'embedded'] as const) {
  describe(`sign-in and registration limits under concurrency (${mode === 'embedded' ? 'single-node PGlite' : 'PostgreSQL'})`, () => {
    let h: Harness
    const kdf = instrumentedHasher()
    beforeAll(async () => {
      // Queues and a wait long enough that no call is shed here: only the limits decide.
      h = await createHarness({ KDF_QUEUE: '1000', KDF_QUEUE_UNKNOWN: '1000', KDF_MAX_WAIT_MS: '20000' }, { embedded: mode === 'embedded', hasher: kdf.hasher })
    }, 60_000)
    afterAll(async () => {
      await h?.close()
    })

    const login = (email: string, password: string, address: string) => h.call('POST', '/auth/login', { address, body: { email, password } })

    for (const n of [30, 100, 200]) {
      it(`checks at most 5 passwords of ${n} simultaneous logins to one account from one address, then refuses the right one`, async () => {
        const { email, password } = await h.signUp()
        const address = `192.0.2.${n % 250}`
        const before = kdf.checks()
        // The right password last: the limit must hold wherever it falls.
        const results = await Promise.all(Array.from({ length: n }, (_, i) => login(email, i === n - 1 ? password : `Wrong${i}pass`, address)))
        const checked = kdf.checks() - before
        expect(checked).toBeLessThanOrEqual(5)
        const count = statuses(results)
        expect((count[401] ?? 0) + (count[200] ?? 0)).toBe(checked)
        expect(count[429]).toBe(n - checked)
        for (const r of results.filter((x) => x.status === 429)) {
          expect(r.body).toEqual({ message: AUTH_MESSAGES.tooManyLogins, code: 'too_many_requests' })
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
        }
        if (results.at(-1)!.status !== 200) {
          const locked = await login(email, password, address)
          expect(locked.status).toBe(429)
          expect(kdf.checks() - before).toBe(checked)
        }
        // The stranger's failures do not lock the owner out from elsewhere.
        expect((await login(email, password, '198.51.100.99')).status).toBe(200)
      }, 60_000)
    }

    if (mode === 'postgresql')
      it('holds the limit across two identity instances sharing the database (cluster mode)', async () => {
        const replica = await h.replica()
        try {
          const { email, password } = await h.signUp()
          const address = '192.0.2.201'
          const before = kdf.checks()
          const results = await Promise.all(
            Array.from({ length: 100 }, (_, i) => (i % 2 ? h : replica).call('POST', '/auth/login', { address, body: { email, password: `Wrong${i}pass` } })),
          )
          expect(kdf.checks() - before).toBe(5)
          expect(statuses(results)).toEqual({ 401: 5, 429: 95 })
          expect((await replica.call('POST', '/auth/login', { address, body: { email, password } })).status).toBe(429)
        } finally {
          await replica.close()
        }
      }, 60_000)

    it('checks at most 50 of 200 simultaneous logins to one account from 200 addresses, then refuses the right one from anywhere', async () => {
      const { email, password } = await h.signUp()
      const before = kdf.checks()
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => login(email, `Wrong${i}pass`, `10.200.${Math.floor(i / 200)}.${i % 200}`)))
      const checked = kdf.checks() - before
      expect(checked).toBe(50)
      expect(statuses(results)).toEqual({ 401: 50, 429: 150 })
      expect((await login(email, password, '198.51.100.98')).status).toBe(429)
      expect(kdf.checks() - before).toBe(50)
    }, 60_000)

    it('lets at most 20 of 40 simultaneous failures from one address be checked', async () => {
      const address = '203.0.113.40'
      const before = kdf.checks()
      const results = await Promise.all(Array.from({ length: 40 }, () => login(uniqueEmail('spray'), 'Wrong1234', address)))
      expect(kdf.checks() - before).toBe(20)
      expect(statuses(results)).toEqual({ 401: 20, 429: 20 })
      const { email, password } = await h.signUp()
      expect((await login(email, password, address)).status).toBe(429)
    }, 60_000)

    it('compares at most 5 of 30 simultaneous admin-code guesses from one address, then refuses the right code', async () => {
      const address = '203.0.113.50'
      const guess = (code: string, from = address) =>
        h.call('POST', '/auth/register', { address: from, body: { name: 'Eve', email: uniqueEmail('eve'), password: 'Passw0rd!', isAdmin: true, adminCode: code } })
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(`guess-${i}`)))
      // The registration limit (10 an hour from one address) bounds them too.
      expect(statuses(results)[400]).toBe(5)
      expect(results.filter((r) => r.status === 400).every((r) => r.body.code === 'invalid_admin_code')).toBe(true)
      const right = await guess(ADMIN_CODE)
      expect(right.status).toBe(429)
      // Guesses from every address together are bounded too (20 an hour): 5 above, 15 more here.
      const spread = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(`spread-${i}`, `10.201.0.${i}`)))
      expect(statuses(spread)).toEqual({ 400: 15, 429: 15 })
      const fresh = await guess(ADMIN_CODE, '10.201.1.1')
      expect(fresh.status).toBe(429)
      expect(fresh.body).toEqual({ message: AUTH_MESSAGES.tooManyAdminCodes, code: 'too_many_requests' })
      h.advance(3600_000 + 1000)
      expect((await guess(ADMIN_CODE, '10.201.1.2')).status).toBe(201)
    }, 60_000)

    it('allows at most 10 registrations an hour from one address, however many arrive at once', async () => {
      const address = '203.0.113.60'
      const before = kdf.counts.hash
      const results = await Promise.all(
        Array.from({ length: 30 }, () => h.call('POST', '/auth/register', { address, body: { name: 'Bulk', email: uniqueEmail('bulk'), password: 'Passw0rd!' } })),
      )
      expect(statuses(results)).toEqual({ 201: 10, 429: 20 })
      expect(kdf.counts.hash - before).toBe(10)
      expect(results.find((r) => r.status === 429)!.body).toEqual({ message: AUTH_MESSAGES.tooManyRegistrations, code: 'too_many_requests' })
      h.advance(3600_000 + 1000)
      expect((await h.call('POST', '/auth/register', { address, body: { name: 'Later', email: uniqueEmail('later'), password: 'Passw0rd!' } })).status).toBe(201)
    }, 60_000)
  })
}

describe('password hashing under a flood of sign-ins', () => {
  let h: Harness
  // Each hash takes 30 ms and only one runs at a time: unbounded, 100 queued hashes take 3 s.
  const kdf = instrumentedHasher(30)
  beforeAll(async () => {
    h = await createHarness({}, { hasher: kdf.hasher })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('sheds 100 simultaneous unknown-e-mail logins with 429 before hashing, and signs in a browser the user signed in from before within a bound', async () => {
    const { email, password, deviceCookie } = await h.signUp()
    const before = kdf.checks()
    const flood = Promise.all(
      Array.from({ length: 100 }, (_, i) => h.call('POST', '/auth/login', { address: `10.50.0.${i}`, body: { email: uniqueEmail('ghost'), password: 'Wrong1234' } })),
    )
    const started = performance.now()
    const known = await h.call('POST', '/auth/login', { address: '198.51.100.7', body: { email, password }, headers: { cookie: deviceCookie! } })
    const waited = performance.now() - started
    const results = await flood
    // Unknown clients get one of the 2 slots and 4 queue places (the defaults): most are answered at once, unhashed.
    const shed = results.filter((r) => r.status === 429)
    expect(shed.length).toBeGreaterThanOrEqual(75)
    expect(kdf.checks() - before).toBe(100 - shed.length + 1)
    for (const r of shed) {
      expect(r.body).toEqual({ message: AUTH_MESSAGES.busy, code: 'busy' })
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    }
    // The known browser took the slot kept for it: it waited for at most the hash under way, never the flood's 3 s.
    expect(known.status).toBe(200)
    expect(waited).toBeLessThan(1_500)
    // A shed attempt is not a failure: nothing counts against the addresses or accounts.
    const [row] = await h.sql<{ used: number }>('select used from auth_limits where key = ?', [`login:address:${'10.50.0.99'}`])
    expect(row?.used ?? 0).toBeLessThanOrEqual(1)
    const after = await h.call('POST', '/auth/login', { address: '198.51.100.7', body: { email, password } })
    expect(after.status).toBe(200)
  }, 30_000)

  it('registration passwords follow the reset rules (upper, lower, digit)', async () => {
    for (const [password, message] of [
      ['alllower1', MESSAGES.passwordUpper],
      ['ALLUPPER1', MESSAGES.passwordLower],
      ['NoDigitsHere', MESSAGES.passwordNumber],
    ]) {
      const res = await h.call('POST', '/auth/register', { body: { name: 'Weak', email: uniqueEmail('weak'), password } })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ message, code: 'validation_failed' })
    }
  })
})
