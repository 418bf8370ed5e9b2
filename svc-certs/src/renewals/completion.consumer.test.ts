import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CertificationHistoryResponse, Events, computeExpiration, renewedExpiration, type EventData } from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

/**
 * Issue 24: a completed course or a passed exam named by a certification type's `renewed_by`
 * records a new period of it, its proof a certificate of completion, once per event.
 */
let h: Harness
let admin: TestUser
let tech: TestUser
/** Renewed by course 101 and exam 202; valid 12 months. */
let loto: { id: number; code: string; name: string }
const COURSE = { item_kind: 'course', item_id: 101, item_title: 'Lockout/Tagout Refresher' } as const
const EXAM = { item_kind: 'exam', item_id: 202, item_title: 'Lockout/Tagout Exam' } as const

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  tech = await h.user({ name: 'José Técnico', branch: 'Portland', department: 'Service' })
  loto = await h.type(admin, { name: 'Lockout/Tagout', code: 'LOTO-24', validity_period: 12, renewed_by: [COURSE, EXAM] })
})
afterAll(async () => {
  await h?.close()
})

const publish = async (
  type: 'learning.course.completed.v1' | 'learning.exam.submitted.v1',
  data: unknown,
  id: string = crypto.randomUUID(),
  occurredAt = new Date().toISOString(),
) => {
  await h.bus.publish({ id, type, occurredAt, data })
  return id
}
const completeCourse = (user: TestUser, over: Partial<EventData<'learning.course.completed.v1'>> = {}, id?: string) =>
  publish(
    'learning.course.completed.v1',
    { userId: user.id, courseId: COURSE.item_id, courseTitle: COURSE.item_title, completedAt: h.now().toISOString(), ...over } satisfies EventData<'learning.course.completed.v1'>,
    id,
  )
const submitExam = (user: TestUser, passed: boolean, over: Partial<EventData<'learning.exam.submitted.v1'>> = {}) =>
  publish('learning.exam.submitted.v1', {
    userId: user.id,
    examId: EXAM.item_id,
    examName: EXAM.item_title,
    attemptId: crypto.randomUUID(),
    attemptNumber: 1,
    score: passed ? 90 : 40,
    passed,
    ...over,
  } satisfies EventData<'learning.exam.submitted.v1'>)

/** The user's certification of the type, as the database keeps it. */
const held = async (user: TestUser, typeId = loto.id) =>
  (
    (await h.sql(
      `select id, to_char(obtained_date, 'YYYY-MM-DD') as obtained, to_char(expiration_date, 'YYYY-MM-DD') as expiration, file_name, file_type, file_key, verified_at
         from technician_certifications where user_id = ? and certification_id = ?`,
      [user.id, typeId],
    )) as { id: number; obtained: string | null; expiration: string | null; file_name: string | null; file_type: string | null; file_key: string | null }[]
  )[0]

/** The structure a PDF reader relies on: header, a cross-reference table where startxref says, each object where the table says. */
function expectValidPdf(bytes: Buffer) {
  const text = bytes.toString('latin1')
  expect(text.startsWith('%PDF-1.4\n')).toBe(true)
  expect(text.endsWith('%%EOF\n')).toBe(true)
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1])
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n')
  const [, , count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref))!
  text
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count))
    .forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10))
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`)
    })
  return text
}

describe('a completed course renews the certification', () => {
  it('adds it when not held: obtained the completion day, expiring by the validity, a certificate of completion as its proof, announced as added', async () => {
    const today = h.daysFromToday(0)
    const eventId = await completeCourse(tech)
    const cert = await held(tech)
    expect(cert).toMatchObject({ obtained: today, expiration: computeExpiration(today, 12), file_type: 'application/pdf' })
    expect(cert!.file_name).toBe(`certificate-of-completion-loto-24-${today}.pdf`)
    const [added] = (await h.events('certs.certification.added.v1')).filter((e) => e.data.userId === tech.id)
    expect(Events['certs.certification.added.v1'].parse(added!.data)).toMatchObject({ certificationId: cert!.id, obtainedDate: today, hasFile: true })
    // The proof download serves it, to the technician as any proof.
    const file = await h.download(`/technician/certifications/${cert!.id}/file?download=1`, tech.token)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-disposition')).toContain(`certificate-of-completion-loto-24-${today}.pdf`)
    const text = expectValidPdf(file.bytes)
    expect(text).toContain('(Certificate of Completion) Tj')
    // Accents dropped for the PDF's standard font; the title, the certification and the record named.
    expect(text).toContain('Jose Tecnico completed the course "Lockout/Tagout Refresher"')
    expect(text).toContain('Lockout/Tagout \\(LOTO-24\\)')
    expect(text).toContain(`Completion date: ${today}`)
    expect(text).toContain(`Completion record: course completion ${eventId}`)
    // Nothing is left to the storage cleaner (the certificate's key was forgotten with the row).
    expect(await h.sql('select key from storage_garbage where key = ?', [cert!.file_key])).toEqual([])
  })

  it('records nothing twice for a redelivered event', async () => {
    const other = await h.user({ name: 'Redelivered Rae', branch: 'Portland', department: 'Service' })
    const id = await completeCourse(other, { completedAt: new Date(h.now().getTime() - 86_400_000).toISOString() })
    const first = await held(other)
    const outbox = (await h.events()).length
    const garbage = await h.sql('select count(*)::int as n from storage_garbage')
    // The same event again (a redelivery after a crash, a second instance): no period, no event, no file.
    await completeCourse(other, {}, id)
    expect(await held(other)).toEqual(first)
    expect((await h.events()).length).toBe(outbox)
    expect(await h.sql('select count(*)::int as n from technician_certification_periods where user_id = ?', [other.id])).toEqual([{ n: 0 }])
    expect(await h.sql("select count(*)::int as n from inbox where consumer = 'certs-completions' and event_id = ?", [id])).toEqual([{ n: 1 }])
    expect(await h.sql('select count(*)::int as n from storage_garbage')).toEqual(garbage)
  })

  it('renews a held certification: the ended period kept as history with its proof, the expiry by the validity (from the old expiry within the recertification window), audited', async () => {
    const user = await h.user({ name: 'Renewing Ren', branch: 'Portland', department: 'Service' })
    // Held with an uploaded proof, expiring in 30 days: a renewal today runs from the old expiry.
    const upload = await h.upload(
      '/technician/certifications/upload',
      user.token,
      { certification_id: String(loto.id), obtained_date: h.daysFromToday(-335), expiration_date: h.daysFromToday(30) },
      [['file', 'card.pdf', FILES.pdf]],
    )
    expect(upload.status).toBe(201)
    const before = await held(user)
    await completeCourse(user)
    const today = h.daysFromToday(0)
    const after = await held(user)
    expect(after).toMatchObject({ id: before!.id, obtained: today, expiration: renewedExpiration(h.daysFromToday(30), today, 12), file_type: 'application/pdf' })
    expect(after!.expiration).toBe(computeExpiration(h.daysFromToday(30), 12))
    expect(after!.file_key).not.toBe(before!.file_key)
    const history = CertificationHistoryResponse.parse((await h.call('GET', `/technician/certifications/${before!.id}/history`, { token: user.token })).body)
    expect(history.history).toEqual([
      expect.objectContaining({
        reason: 'renewed',
        obtained_date: h.daysFromToday(-335),
        expiration_date: h.daysFromToday(30),
        file_name: 'card.pdf',
        ended_by: { id: user.id, name: 'Renewing Ren' },
      }),
    ])
    // The ended period's proof is still served, and the new one is the certificate.
    expect((await h.download(history.history[0]!.file_path!, user.token)).bytes.equals(FILES.pdf)).toBe(true)
    expect((await h.download(`/technician/certifications/${before!.id}/file`, user.token)).bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const [updated] = (await h.events('certs.certification.updated.v1')).filter((e) => e.data.userId === user.id && e.data.obtainedDate === today)
    expect(updated!.data).toMatchObject({ certificationId: before!.id, expirationDate: after!.expiration, hasFile: true })
    const [audit] = await h.sql("select action, actor_id, details from audit_log where action = 'certification.renewed' and details->>'user_id' = ?", [user.id])
    expect(audit).toMatchObject({
      action: 'certification.renewed',
      actor_id: user.id,
      details: expect.objectContaining({ new_obtained_date: today, renewed_by: COURSE, completion_record: expect.stringMatching(/^course completion /) }),
    })
  })

  it('renews from the completion day when the old expiry is further than the window', async () => {
    const user = await h.user({ name: 'Early Eve', branch: 'Portland', department: 'Service' })
    await h.call('POST', '/technician/certifications/add', {
      token: user.token,
      body: { certification_id: loto.id, certification_number: 'L-1', obtained_date: h.daysFromToday(-200), expiration_date: h.daysFromToday(165) },
    })
    await completeCourse(user)
    expect(await held(user)).toMatchObject({ obtained: h.daysFromToday(0), expiration: computeExpiration(h.daysFromToday(0), 12) })
  })

  it('leaves a period that starts later, or one of the same day with its proof, as it is', async () => {
    const user = await h.user({ name: 'Current Cal', branch: 'Portland', department: 'Service' })
    await h.upload('/technician/certifications/upload', user.token, { certification_id: String(loto.id), obtained_date: h.daysFromToday(0) }, [['file', 'today.pdf', FILES.pdf]])
    const before = await held(user)
    await completeCourse(user, { completedAt: new Date(h.now().getTime() - 3 * 86_400_000).toISOString() })
    await completeCourse(user)
    expect(await held(user)).toEqual(before)
    expect(await h.sql('select count(*)::int as n from technician_certification_periods where user_id = ?', [user.id])).toEqual([{ n: 0 }])
  })
})

describe('an exam renews it when passed', () => {
  it('renews on a pass, not on a fail', async () => {
    const user = await h.user({ name: 'Examined Ezra', branch: 'Seattle', department: 'Service' })
    const failed = await submitExam(user, false)
    expect(await held(user)).toBeUndefined()
    expect(await h.sql('select event_id from inbox where event_id = ?', [failed])).toEqual([])
    await submitExam(user, true)
    const cert = await held(user)
    expect(cert).toMatchObject({ obtained: h.daysFromToday(0), expiration: computeExpiration(h.daysFromToday(0), 12) })
    const text = expectValidPdf((await h.download(`/technician/certifications/${cert!.id}/file`, user.token)).bytes)
    expect(text).toContain('Examined Ezra passed the exam "Lockout/Tagout Exam"')
    expect(text).toMatch(/Completion record: exam attempt [0-9a-f-]{36}/)
  })
})

describe('what renews nothing', () => {
  it('skips a technician the projection does not know, other courses, inactive types and types for another department', async () => {
    const stranger = { id: crypto.randomUUID() } as TestUser
    const unknownId = await completeCourse(stranger)
    expect(await h.sql('select id from technician_certifications where user_id = ?', [stranger.id])).toEqual([])
    expect(await h.sql('select event_id from inbox where event_id = ?', [unknownId])).toEqual([])

    const user = await h.user({ name: 'Untouched Uma', branch: 'Portland', department: 'Service' })
    await completeCourse(user, { courseId: 999, courseTitle: 'Something Else' })
    expect(await held(user)).toBeUndefined()

    const inactive = await h.type(admin, { name: 'Old Card', is_active: false, renewed_by: [{ item_kind: 'course', item_id: 303, item_title: 'Old Course' }] })
    const testing = await h.type(admin, { name: 'Testing Only', department: 'Testing', renewed_by: [{ item_kind: 'course', item_id: 303, item_title: 'Old Course' }] })
    const lifetime = await h.type(admin, { name: 'Lifetime Card', validity_period: null, renewed_by: [{ item_kind: 'course', item_id: 303, item_title: 'Old Course' }] })
    await completeCourse(user, { courseId: 303, courseTitle: 'Old Course' })
    expect(await held(user, inactive.id)).toBeUndefined()
    expect(await held(user, testing.id)).toBeUndefined()
    // One course may renew several types: the one that applies is recorded, without an expiry for a lifetime type.
    expect(await held(user, lifetime.id)).toMatchObject({ obtained: h.daysFromToday(0), expiration: null, file_type: 'application/pdf' })
  })
})

describe('the completion day is the company’s', () => {
  it('takes the calendar day of the completion in the company’s time zone', async () => {
    const la = await createHarness({ timeZone: 'America/Los_Angeles' })
    try {
      const a = await la.user({ admin: true, branch: null, department: null })
      const t = await la.user({ name: 'Night Owl', branch: 'Portland', department: 'Service' })
      const type = await la.type(a, { validity_period: 24, renewed_by: [COURSE] })
      // 05:00 UTC on March 1st is still February 28th in Los Angeles.
      await la.bus.publish({
        id: crypto.randomUUID(),
        type: 'learning.course.completed.v1',
        occurredAt: new Date().toISOString(),
        data: { userId: t.id, courseId: COURSE.item_id, courseTitle: COURSE.item_title, completedAt: '2026-03-01T05:00:00.000Z' },
      })
      const [row] = await la.sql(
        `select to_char(obtained_date, 'YYYY-MM-DD') as obtained, to_char(expiration_date, 'YYYY-MM-DD') as expiration, file_name from technician_certifications where user_id = ? and certification_id = ?`,
        [t.id, type.id],
      )
      expect(row).toEqual({ obtained: '2026-02-28', expiration: '2028-02-28', file_name: `certificate-of-completion-${type.code.toLowerCase()}-2026-02-28.pdf` })
    } finally {
      await la.close()
    }
  })
})
