import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AuditEntriesResponse,
  CERT_MESSAGES,
  CertificationHistoryResponse,
  ConsistencyReport,
  TechnicianProfile,
  UserCertificationResponse,
  todayIn,
  type CertificationPeriod,
} from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

// Issue 23 item 4: history, not overwrite (decision 0044). A renewal keeps the period it ends, a
// replaced proof is kept, a deleted certification keeps its history; the audit trail names them.
let h: Harness
let admin: TestUser
let tech: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin', branch: null, department: null })
  tech = await h.user({ name: 'Renee Renewer', branch: 'Portland', department: 'Service' })
})
afterAll(async () => {
  await h?.close()
})

const put = (user: TestUser, id: number, body: Record<string, unknown>) => h.call('PUT', `/technician/certifications/${id}`, { token: user.token, body })
const upload = (user: TestUser, fields: Record<string, string>, name = 'proof.pdf', bytes: Uint8Array = FILES.pdf) =>
  h.upload('/technician/certifications/upload', user.token, fields, [['file', name, bytes]])
const history = async (user: TestUser, id: number) => {
  const res = await h.call('GET', `/technician/certifications/${id}/history`, { token: user.token })
  expect(res.status).toBe(200)
  return CertificationHistoryResponse.parse(res.body)
}
const row = async (id: number) => (await h.sql('select * from technician_certifications where id = ?', [id]))[0]
const periods = async (id: number) => h.sql('select * from technician_certification_periods where technician_certification_id = ? order by id', [id])
const periodFacts = (list: CertificationPeriod[]) => list.map((p) => [p.reason, p.obtained_date, p.expiration_date, p.file_name])
const trail = async (action: string) => AuditEntriesResponse.parse((await h.call('GET', `/admin/audit/certs?action=${action}`, { token: admin.token })).body)
/** Proof files in storage and garbage rows. */
const leftovers = async () => ({ files: await h.storage.list('proofs'), garbage: await h.sql('select key from storage_garbage') })

/** A certification of `user` with its proof `a.pdf`, obtained `obtained`; a 12-month type by default. */
const proven = async (user: TestUser, obtained = '2025-01-10', over: { validity_period?: number | null } = {}) => {
  const t = await h.type(admin, { validity_period: 12, ...over })
  const res = await upload(user, { certification_id: String(t.id), obtained_date: obtained }, 'a.pdf', FILES.pdf)
  expect(res.status).toBe(201)
  return { type: t, cert: UserCertificationResponse.parse(res.body).certification }
}

describe('a renewal (a later obtained date) keeps the earlier period', () => {
  it('by PUT: the period ended is kept with its dates, number, proof and who ended it, newest first; the new period waits for its proof', async () => {
    const { type, cert } = await proven(tech)
    expect(cert.history).toEqual([])
    // 5 days before the old expiry: inside the recertification window, so the new period runs from the old expiry.
    const res = await put(tech, cert.id, { obtained_date: '2026-01-05', certification_number: 'R-2' })
    expect(res.status).toBe(200)
    const renewed = UserCertificationResponse.parse(res.body).certification
    expect(renewed).toMatchObject({ id: cert.id, obtained_date: '2026-01-05', expiration_date: '2027-01-10', certification_number: 'R-2', file_path: null, status: 'Not Uploaded' })
    expect(renewed.history).toHaveLength(1)
    const [kept] = renewed.history!
    expect(kept).toMatchObject({
      user_certification_id: cert.id,
      certification_id: type.id,
      obtained_date: '2025-01-10',
      expiration_date: '2026-01-10',
      certification_number: null,
      file_name: 'a.pdf',
      file_type: 'application/pdf',
      reason: 'renewed',
      ended_by: { id: tech.id, name: 'Renee Renewer' },
      file_path: `/technician/certifications/${cert.id}/history/${kept!.id}/file`,
    })

    // The earlier proof stays downloadable, as the current one is.
    const file = await h.download(`${kept!.file_path}?download=1`, tech.token)
    expect(file.status).toBe(200)
    expect(file.bytes.equals(FILES.pdf)).toBe(true)
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`)
    expect(file.headers.get('cache-control')).toBe('private, no-store')
    expect((await h.download(kept!.file_path!, tech.token)).headers.get('content-disposition')).toMatch(/^inline; /)

    // The history route and the profile (and so the member page) show the same periods.
    expect(await history(tech, cert.id)).toEqual({
      user_id: tech.id,
      user_certification_id: cert.id,
      certification_id: type.id,
      name: type.name,
      code: type.code,
      held: true,
      history: [kept],
    })
    const profile = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${tech.id}`, { token: tech.token })).body)
    expect(profile.certifications.find((c) => c.id === cert.id)!.history).toEqual([kept])

    // The new period's proof, uploaded with its date, completes it: no period of its own.
    const proof = await upload(tech, { certification_id: String(type.id), obtained_date: '2026-01-05', expiration_date: '2027-01-10' }, 'b.png', FILES.png)
    expect(proof.status).toBe(200)
    expect(periodFacts(proof.body.certification.history)).toEqual([['renewed', '2025-01-10', '2026-01-10', 'a.pdf']])

    // A second renewal, by upload: newest first.
    const again = await upload(tech, { certification_id: String(type.id), obtained_date: '2027-01-02' }, 'c.pdf', FILES.pdf)
    expect(again.status).toBe(200)
    expect(again.body.certification).toMatchObject({ obtained_date: '2027-01-02', expiration_date: '2028-01-10', file_name: 'c.pdf' })
    expect(periodFacts((await history(tech, cert.id)).history)).toEqual([
      ['renewed', '2026-01-05', '2027-01-10', 'b.png'],
      ['renewed', '2025-01-10', '2026-01-10', 'a.pdf'],
    ])
  })

  it('is in the audit trail with the period’s id, the certification’s and who did it', async () => {
    const { type, cert } = await proven(tech, '2024-03-01')
    const res = await put(admin, cert.id, { obtained_date: '2025-03-01' })
    expect(res.status).toBe(200)
    const kept = res.body.certification.history[0] as CertificationPeriod
    expect(kept.ended_by).toEqual({ id: admin.id, name: 'Ada Admin' })
    const entry = (await trail('certification.renewed')).find((e) => e.details.period_id === kept.id)
    expect(entry).toMatchObject({
      service: 'certs',
      actor_name: 'Ada Admin',
      action: 'certification.renewed',
      target: `Renee Renewer: ${type.code}`,
      details: {
        user_id: tech.id,
        user_certification_id: cert.id,
        certification_id: type.id,
        period_id: kept.id,
        obtained_date: '2024-03-01',
        expiration_date: '2025-03-01',
        file_name: 'a.pdf',
        new_obtained_date: '2025-03-01',
        new_expiration_date: '2026-03-01',
      },
    })
  })
})

describe('a correction (the same obtained date) changes the current period in place', () => {
  it('keeps no period for new dates, number or notes', async () => {
    const { cert } = await proven(tech)
    const res = await put(tech, cert.id, { obtained_date: '2025-01-10', expiration_date: '2026-02-01', certification_number: 'TYPO-FIXED', notes: 'n' })
    expect(res.status).toBe(200)
    expect(res.body.certification).toMatchObject({ expiration_date: '2026-02-01', certification_number: 'TYPO-FIXED', file_name: 'a.pdf', history: [] })
    expect(await periods(cert.id)).toEqual([])
  })

  it('keeps a replaced proof (replaced), downloadable, and names it in the audit trail', async () => {
    const { type, cert } = await proven(tech)
    const replaced = await h.upload(`/technician/certifications/${cert.id}/file`, tech.token, {}, [['file', 'b.png', FILES.png]])
    expect(replaced.status).toBe(200)
    const [kept] = replaced.body.certification.history as CertificationPeriod[]
    expect(kept).toMatchObject({ reason: 'replaced', obtained_date: '2025-01-10', file_name: 'a.pdf' })
    expect((await h.download(kept!.file_path!, tech.token)).bytes.equals(FILES.pdf)).toBe(true)
    // The same obtained date through the upload form: the proof is replaced, the period stays.
    const same = await upload(tech, { certification_id: String(type.id), obtained_date: '2025-01-10' }, 'c.jpg', FILES.jpeg)
    expect(periodFacts(same.body.certification.history)).toEqual([
      ['replaced', '2025-01-10', '2026-01-10', 'b.png'],
      ['replaced', '2025-01-10', '2026-01-10', 'a.pdf'],
    ])
    expect((await trail('certification.proof_replaced')).filter((e) => e.details.user_certification_id === cert.id)).toHaveLength(2)
  })
})

describe('deleting a certification', () => {
  it('keeps its history for the audit trail and says so; it leaves the profile and the figures, and may be added again with its history', async () => {
    const { type, cert } = await proven(tech, '2025-02-01')
    await put(tech, cert.id, { obtained_date: '2026-02-01' })
    const res = await h.call('DELETE', `/technician/certifications/${cert.id}`, { token: tech.token })
    expect(res).toMatchObject({ status: 200, body: { message: CERT_MESSAGES.deleted, history_path: `/technician/certifications/${cert.id}/history` } })
    expect(res.body.message).toMatch(/history.*kept for the audit trail/)
    expect(await row(cert.id)).toBeUndefined()

    const kept = await history(tech, cert.id)
    expect(kept).toMatchObject({ held: false, name: type.name, code: type.code })
    expect(periodFacts(kept.history)).toEqual([
      ['deleted', '2026-02-01', '2027-02-01', null],
      ['renewed', '2025-02-01', '2026-02-01', 'a.pdf'],
    ])
    expect(kept.history[0]!.ended_by.id).toBe(tech.id)
    // The proof of a deleted certification's period stays downloadable.
    expect((await h.download(kept.history[1]!.file_path!, tech.token)).bytes.equals(FILES.pdf)).toBe(true)
    const entry = (await trail('certification.deleted')).find((e) => e.details.user_certification_id === cert.id)
    expect(entry).toMatchObject({ actor_name: 'Renee Renewer', target: `Renee Renewer: ${type.code}`, details: { period_id: kept.history[0]!.id, certification_id: type.id } })

    // Off the profile (listed among the deleted, with its history) and out of every figure.
    const profile = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${tech.id}`, { token: tech.token })).body)
    expect(profile.certifications.map((c) => c.id)).not.toContain(cert.id)
    expect(profile.deleted_certifications!.find((d) => d.certification_id === type.id)).toEqual({
      certification_id: type.id,
      user_certification_id: cert.id,
      name: type.name,
      code: type.code,
      history: kept.history,
    })
    expect(await h.sql('select count(*)::int as n from technician_certifications where user_id = ? and certification_id = ?', [tech.id, type.id])).toEqual([{ n: 0 }])

    // Added again: a new certification, showing the history kept; no longer among the deleted.
    const again = await h.call('POST', '/technician/certifications/add', { token: tech.token, body: { certification_id: type.id, certification_number: 'BACK' } })
    expect(again.status).toBe(201)
    expect(again.body.certification.id).not.toBe(cert.id)
    expect(periodFacts(again.body.certification.history)).toEqual(periodFacts(kept.history))
    const after = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${tech.id}`, { token: tech.token })).body)
    expect(after.deleted_certifications!.map((d) => d.certification_id)).not.toContain(type.id)
    expect(periodFacts(after.certifications.find((c) => c.certification_id === type.id)!.history!)).toEqual(periodFacts(kept.history))
  })

  it('goes with a user deleted in identity: their history and its proofs too', async () => {
    const gone = await h.user()
    const { cert } = await proven(gone)
    await h.upload(`/technician/certifications/${cert.id}/file`, gone.token, {}, [['file', 'b.png', FILES.png]])
    const key = (await periods(cert.id))[0]!.file_key as string
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: gone.id } })
    expect(await h.sql('select id from technician_certification_periods where user_id = ?', [gone.id])).toEqual([])
    await h.garbage.sweep()
    expect(await h.storage.stat(key)).toBeNull()
  })
})

describe('bad input: a clear 400 naming the field, nothing changed', () => {
  const year = () => +todayIn('UTC', h.now()).slice(0, 4)

  it('refuses a renewal with an obtained date before the current period’s (PUT and upload), with no file left behind', async () => {
    const { type, cert } = await proven(tech, '2025-06-01')
    const before = await row(cert.id)
    const files = await leftovers()
    const refused = await put(tech, cert.id, { obtained_date: '2025-05-01' })
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'obtained_before_current_period', details: [{ path: 'obtained_date' }] },
    })
    expect(refused.body.message).toBe("Obtained date cannot be before the current period's (2025-06-01): a renewal starts after it")
    const byUpload = await upload(tech, { certification_id: String(type.id), obtained_date: '2024-12-31' }, 'late.pdf')
    expect(byUpload).toMatchObject({ status: 400, body: { code: 'obtained_before_current_period', details: [{ path: 'obtained_date' }] } })
    expect(await row(cert.id)).toEqual(before)
    expect(await periods(cert.id)).toEqual([])
    expect(await leftovers()).toEqual(files)
  })

  it('lets an earlier obtained date correct a certification still without proof or history (added, then its proof uploaded)', async () => {
    const t = await h.type(admin, { validity_period: 12 })
    const added = await h.call('POST', '/technician/certifications/add', {
      token: tech.token,
      body: { certification_id: t.id, certification_number: 'A', obtained_date: '2025-03-01' },
    })
    const res = await upload(tech, { certification_id: String(t.id), obtained_date: '2025-02-01' })
    expect(res.status).toBe(200)
    expect(res.body.certification).toMatchObject({ obtained_date: '2025-02-01', expiration_date: '2026-02-01', history: [] })
    expect(await periods(added.body.certification.id)).toEqual([])
  })

  it('refuses an expiration before the obtained date naming expiration_date (PUT, add, upload)', async () => {
    const { type, cert } = await proven(tech)
    const before = await row(cert.id)
    const files = await leftovers()
    for (const res of [
      await put(tech, cert.id, { obtained_date: '2026-01-10', expiration_date: '2026-01-09' }),
      await upload(tech, { certification_id: String(type.id), obtained_date: '2026-01-10', expiration_date: '2025-01-01' }),
      await h.call('POST', '/technician/certifications/add', {
        token: tech.token,
        body: { certification_id: type.id, certification_number: 'X', obtained_date: '2026-01-10', expiration_date: '2026-01-09' },
      }),
    ])
      expect(res).toMatchObject({ status: 400, body: { code: 'validation_failed', message: CERT_MESSAGES.expirationBeforeObtained, details: [{ path: 'expiration_date' }] } })
    expect(await row(cert.id)).toEqual(before)
    expect(await periods(cert.id)).toEqual([])
    expect(await leftovers()).toEqual(files)
  })

  it('refuses a date more than 100 years away, naming it (PUT, add, upload)', async () => {
    const { type, cert } = await proven(tech)
    const before = await row(cert.id)
    const files = await leftovers()
    const far = `${year() + 101}-01-01`
    const long = `${year() - 101}-12-31`
    const cases: [Promise<{ status: number; body: { message: string } }>, string][] = [
      [put(tech, cert.id, { obtained_date: far }), 'obtained_date'],
      [put(tech, cert.id, { obtained_date: '2025-01-10', expiration_date: far }), 'expiration_date'],
      [put(tech, cert.id, { obtained_date: long }), 'obtained_date'],
      [upload(tech, { certification_id: String(type.id), obtained_date: '2026-01-10', expiration_date: far }), 'expiration_date'],
      [
        h.call('POST', '/technician/certifications/add', { token: tech.token, body: { certification_id: type.id, certification_number: 'X', obtained_date: long } }),
        'obtained_date',
      ],
    ]
    for (const [call, field] of cases) {
      const res = await call
      expect(res, field).toMatchObject({ status: 400, body: { code: 'date_out_of_range', details: [{ path: field }] } })
      expect(res.body.message).toMatch(new RegExp(`^${field === 'obtained_date' ? 'Obtained' : 'Expiration'} date must be within 100 years of today`))
    }
    expect(await row(cert.id)).toEqual(before)
    expect(await periods(cert.id)).toEqual([])
    expect(await leftovers()).toEqual(files)
    // 100 years ahead exactly is still a date.
    expect((await put(tech, cert.id, { obtained_date: '2025-01-10', expiration_date: `${year() + 99}-12-31` })).status).toBe(200)
  })
})

describe('two renewals of the same certification at once', () => {
  /**
   * Runs `calls` while the test holds the certification's row lock, so each has read the row and
   * waits for the lock (as two requests arriving together do), then lets them go.
   */
  const atOnce = async <T>(id: number, calls: (() => Promise<T>)[]): Promise<T[]> => {
    let answers!: Promise<T[]>
    await h.orm.em.fork().transactional(async (em) => {
      await em.execute('select id from technician_certifications where id = ? for update', [id])
      answers = Promise.all(calls.map((call) => call()))
      for (let waited = 0; ; waited += 20) {
        // Asked outside the transaction: a transaction sees one snapshot of pg_stat_activity.
        const [{ n }] = (await h.sql(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%technician_certifications%'",
        )) as [{ n: number }]
        if (n >= calls.length) break
        if (waited > 10_000) throw new Error(`only ${n} of the calls wait for the lock`)
        await new Promise((r) => setTimeout(r, 20))
      }
    })
    return answers
  }

  it('by PUT: one wins, the other gets 409 saying so, and history has one entry', async () => {
    const { cert } = await proven(tech, '2025-04-01')
    const answers = await atOnce(cert.id, [() => put(tech, cert.id, { obtained_date: '2026-04-01' }), () => put(tech, cert.id, { obtained_date: '2026-04-01' })])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ code: 'certification_changed', message: CERT_MESSAGES.changedMeanwhile })
    expect(await periods(cert.id)).toHaveLength(1)
    expect(periodFacts((await history(tech, cert.id)).history)).toEqual([['renewed', '2025-04-01', '2026-04-01', 'a.pdf']])
  })

  it('by upload: one wins, the other gets 409, its file is not kept, and history has one entry', async () => {
    const { type, cert } = await proven(tech, '2025-04-01')
    const files = (await leftovers()).files.length
    const renew = (name: string) => () => upload(tech, { certification_id: String(type.id), obtained_date: '2026-04-01' }, name)
    const answers = await atOnce(cert.id, [renew('one.pdf'), renew('two.pdf')])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ code: 'certification_changed' })
    expect(periodFacts((await history(tech, cert.id)).history)).toEqual([['renewed', '2025-04-01', '2026-04-01', 'a.pdf']])
    // The winner's proof is stored, the loser's is not.
    expect((await leftovers()).files.length).toBe(files + 1)
    expect(await h.sql('select key from storage_garbage')).toEqual([])
  })

  it('a delete and a renewal at once: one wins, the other is refused, one period is kept', async () => {
    const { cert } = await proven(tech, '2025-04-01')
    const answers = await atOnce(cert.id, [
      () => h.call('DELETE', `/technician/certifications/${cert.id}`, { token: tech.token }),
      () => put(tech, cert.id, { obtained_date: '2026-04-01' }),
    ])
    // The renewal first: the delete finds the row changed (409). The delete first: the renewal finds it gone (404).
    const [first, second] = answers[0]!.status === 200 ? answers : [answers[1]!, answers[0]!]
    expect(first!.status).toBe(200)
    expect(second!.status === 409 ? second!.body.code : second!.status === 404 ? second!.body.code : second!.status).toMatch(/^(certification_changed|certification_not_found)$/)
    expect(await periods(cert.id)).toHaveLength(1)
  })
})

describe('who may read the history (the rule of the certification’s own routes)', () => {
  let owner: TestUser
  let other: TestUser
  let inScope: TestUser
  let outOfScope: TestUser
  let held: number
  let deleted: number
  const paths: Record<string, string> = {}
  beforeAll(async () => {
    owner = await h.user({ branch: 'Portland', department: 'Service' })
    other = await h.user({ branch: 'Portland', department: 'Service' })
    inScope = await h.user({ manager: { branches: ['Portland'], departments: ['Service'] } })
    outOfScope = await h.user({ manager: { branches: ['Seattle'], departments: [] } })
    const renewed = await proven(owner, '2025-01-01')
    held = renewed.cert.id
    const periodOf = (await put(owner, held, { obtained_date: '2026-01-01' })).body.certification.history[0] as CertificationPeriod
    paths.heldFile = periodOf.file_path!
    const gone = await proven(owner, '2025-01-01')
    deleted = gone.cert.id
    await h.call('DELETE', `/technician/certifications/${deleted}`, { token: owner.token })
    paths.deletedFile = (await history(owner, deleted)).history[0]!.file_path!
  })

  type Caller = 'self' | 'other technician' | 'manager in scope' | 'manager out of scope' | 'admin' | 'unauthenticated'
  const callers: Caller[] = ['self', 'other technician', 'manager in scope', 'manager out of scope', 'admin', 'unauthenticated']
  const token = (who: Caller) =>
    ({ self: owner, 'other technician': other, 'manager in scope': inScope, 'manager out of scope': outOfScope, admin, unauthenticated: undefined })[who]?.token
  // Anyone else gets the 404 of an id that does not exist: ids reveal nothing (certifications/access.ts).
  const readers = { self: 200, 'other technician': 404, 'manager in scope': 200, 'manager out of scope': 404, admin: 200, unauthenticated: 401 }

  it.each([
    ['GET history', () => `/technician/certifications/${held}/history`],
    ['GET history of a deleted certification', () => `/technician/certifications/${deleted}/history`],
    ['GET an earlier period’s proof', () => paths.heldFile!],
    ['GET a deleted certification’s proof', () => paths.deletedFile!],
  ])('%s', async (_name, path) => {
    const got: Record<string, number> = {}
    for (const who of callers) got[who] = (await h.download(path(), token(who))).status
    expect(got).toEqual(readers)
  })

  it('answers 404 for an unknown certification or period, or a period of another certification', async () => {
    expect(await h.call('GET', '/technician/certifications/999999/history', { token: admin.token })).toMatchObject({ status: 404, body: { code: 'certification_not_found' } })
    const periodId = paths.heldFile!.split('/')[5]
    expect(await h.call('GET', `/technician/certifications/${held}/history/999999/file`, { token: admin.token })).toMatchObject({ status: 404, body: { code: 'period_not_found' } })
    expect(await h.call('GET', `/technician/certifications/${deleted}/history/${periodId}/file`, { token: admin.token })).toMatchObject({
      status: 404,
      body: { code: 'period_not_found' },
    })
  })
})

describe('the figures after renewals and deletions', () => {
  it('still agree with the ledger (GET /admin/certifications/consistency)', async () => {
    const soon = await proven(tech, h.daysFromToday(-360))
    await put(tech, soon.cert.id, { obtained_date: h.daysFromToday(-1) })
    const expired = await proven(tech, h.daysFromToday(-400))
    await h.call('DELETE', `/technician/certifications/${expired.cert.id}`, { token: tech.token })
    const check = ConsistencyReport.parse((await h.call('GET', '/admin/certifications/consistency', { token: admin.token })).body)
    expect(check.differences).toEqual([])
    expect(check.consistent).toBe(true)
  })
})
