import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AvailableCertificationsResponse, CERT_MESSAGES, UserCertificationResponse, computeExpiration, todayIso } from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  tech = await h.user({ branch: 'Portland', department: 'Service' })
})
afterAll(async () => {
  await h?.close()
})

const MB = 1024 * 1024
const today = () => todayIso(h.now())
const daysFromToday = (days: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
/** Proof files in storage and garbage rows: a failed upload leaves neither. */
const leftovers = async () => ({ files: await h.storage.list('proofs'), garbage: await h.sql('select key from storage_garbage') })
const add = (user: TestUser, body: Record<string, unknown>) => h.call('POST', '/technician/certifications/add', { token: user.token, body })

describe('POST /technician/certifications/add (learner §5)', () => {
  it('adds a certification; without an expiration it is obtained + validity months (day clamped)', async () => {
    const t = await h.type(admin, { validity_period: 12 })
    const res = await add(tech, { certification_id: t.id, certification_number: '  CPR-77 ', obtained_date: '2024-02-29', notes: 'Red Cross' })
    expect(res.status).toBe(201)
    const { message, certification } = UserCertificationResponse.parse(res.body)
    expect(message).toBe(CERT_MESSAGES.added)
    expect(certification).toMatchObject({
      user_id: tech.id,
      certification_id: t.id,
      certification_number: 'CPR-77',
      obtained_date: '2024-02-29',
      expiration_date: '2025-02-28',
      notes: 'Red Cross',
      file_path: null,
      status: 'Expired',
      is_valid: false,
      expiration_badge: 'expired',
    })
    expect(computeExpiration('2024-02-29', 12)).toBe('2025-02-28')
    const [event] = await h.events('certs.certification.added.v1')
    expect(event!.data).toEqual({
      certificationId: certification.id,
      userId: tech.id,
      certificationTypeId: t.id,
      code: t.code,
      name: t.name,
      tierLevel: 0,
      obtainedDate: '2024-02-29',
      expirationDate: '2025-02-28',
      hasFile: false,
    })
  })

  it('keeps a given expiration, and lifetime types or a missing obtained date have none', async () => {
    const t = await h.type(admin, { validity_period: 24 })
    const given = await add(tech, { certification_id: t.id, certification_number: 'A', obtained_date: today(), expiration_date: daysFromToday(5) })
    expect(given.body.certification).toMatchObject({ expiration_date: daysFromToday(5), days_until_expiry: 5, expiration_badge: 'critical', status: 'Not Uploaded' })
    const lifetime = await h.type(admin, { validity_period: null, upload_required: false })
    const l = await add(tech, { certification_id: lifetime.id, certification_number: 'B', obtained_date: today() })
    expect(l.body.certification).toMatchObject({ expiration_date: null, status: 'Completed', expiration_badge: null, is_valid: true })
    const undated = await h.type(admin, { validity_period: 12 })
    expect((await add(tech, { certification_id: undated.id, certification_number: 'C', obtained_date: '' })).body.certification).toMatchObject({
      obtained_date: null,
      expiration_date: null,
    })
  })

  it('refuses a missing type or number, dates out of order, an unknown, inactive or other-department type, and one already held', async () => {
    const t = await h.type(admin)
    expect(await add(tech, { certification_number: 'X' })).toMatchObject({ status: 400, body: { message: CERT_MESSAGES.certificationRequired } })
    expect(await add(tech, { certification_id: t.id, certification_number: '   ' })).toMatchObject({ status: 400, body: { message: CERT_MESSAGES.certificationNumberRequired } })
    // A value of the wrong kind is named as such, not as missing.
    expect(await add(tech, { certification_id: t.id, certification_number: 123 })).toMatchObject({ status: 400, body: { message: 'Certification number must be text' } })
    expect(await add(tech, { certification_id: 'abc', certification_number: 'X' })).toMatchObject({ status: 400, body: { message: 'Invalid certification id' } })
    expect(await add(tech, { certification_id: t.id, certification_number: 'X', obtained_date: '2024-05-01', expiration_date: '2024-04-01' })).toMatchObject({
      status: 400,
      body: { message: CERT_MESSAGES.expirationBeforeObtained },
    })
    expect(await add(tech, { certification_id: t.id, certification_number: 'X', obtained_date: '2024-13-01' })).toMatchObject({ status: 400 })
    expect(await add(tech, { certification_id: t.id, certification_number: 'X', obtained_date: '2024-02-30' })).toMatchObject({ status: 400 })
    // Dates PostgreSQL (or the validity arithmetic) could not take are a 400, not a 500.
    expect(await add(tech, { certification_id: t.id, certification_number: 'X', obtained_date: '0000-01-01' })).toMatchObject({ status: 400, body: { code: 'date_out_of_range' } })
    expect(await add(tech, { certification_id: t.id, certification_number: 'X', obtained_date: '9999-12-31' })).toMatchObject({ status: 400, body: { code: 'date_out_of_range' } })
    expect(await add(tech, { certification_id: 999999, certification_number: 'X' })).toMatchObject({ status: 404, body: { code: 'certification_type_not_found' } })
    const inactive = await h.type(admin, { is_active: false })
    expect(await add(tech, { certification_id: inactive.id, certification_number: 'X' })).toMatchObject({ status: 400, body: { code: 'certification_unavailable' } })
    const testing = await h.type(admin, { department: 'Testing' })
    expect(await add(tech, { certification_id: testing.id, certification_number: 'X' })).toMatchObject({ status: 400, body: { code: 'certification_unavailable' } })
    expect((await add(tech, { certification_id: t.id, certification_number: 'X' })).status).toBe(201)
    expect(await add(tech, { certification_id: t.id, certification_number: 'Y' })).toMatchObject({
      status: 409,
      body: { code: 'already_held', message: CERT_MESSAGES.alreadyHeld },
    })
  })

  it('lets an admin add for a technician (user_id), but nobody else for someone else', async () => {
    const t = await h.type(admin)
    const other = await h.user()
    const byAdmin = await h.call('POST', '/technician/certifications/add', { token: admin.token, body: { certification_id: t.id, certification_number: 'ADM', user_id: other.id } })
    expect(byAdmin.status).toBe(201)
    expect(byAdmin.body.certification.user_id).toBe(other.id)
    const t2 = await h.type(admin)
    expect(await add(tech, { certification_id: t2.id, certification_number: 'X', user_id: other.id })).toMatchObject({ status: 403 })
    expect(
      await h.call('POST', '/technician/certifications/add', { token: admin.token, body: { certification_id: t2.id, certification_number: 'X', user_id: crypto.randomUUID() } }),
    ).toMatchObject({
      status: 404,
      body: { code: 'user_not_found' },
    })
  })
})

describe('a technician without branch or department (learner §2: the profile modal locks certification features)', () => {
  it('adds and uploads nothing until both are chosen (409, nothing stored); an admin may still set them up', async () => {
    const t = await h.type(admin)
    const newHire = await h.user({ branch: null, department: null })
    const branchOnly = await h.user({ branch: 'Seattle', department: null })
    const stored = () => h.sql<{ n: number }>('select count(*)::int as n from technician_certifications where user_id in (?, ?)', [newHire.id, branchOnly.id])
    const before = await leftovers()
    for (const who of [newHire, branchOnly]) {
      expect(await add(who, { certification_id: t.id, certification_number: 'NH-1' })).toMatchObject({
        status: 409,
        body: { code: 'profile_incomplete', message: 'Choose your branch and department on your dashboard to add certifications and upload proofs.' },
      })
      expect(
        await h.upload('/technician/certifications/upload', who.token, { certification_id: String(t.id), obtained_date: '2025-01-15' }, [['file', 'proof.pdf', FILES.pdf]]),
      ).toMatchObject({
        status: 409,
        body: { code: 'profile_incomplete' },
      })
    }
    expect(await stored()).toEqual([{ n: 0 }])
    expect(await leftovers()).toEqual(before)
    expect(
      (await h.call('POST', '/technician/certifications/add', { token: admin.token, body: { certification_id: t.id, certification_number: 'NH-ADM', user_id: newHire.id } }))
        .status,
    ).toBe(201)
  })
})

describe('POST /technician/certifications/upload', () => {
  it('creates the certification with its proof, judged by content: a PNG named .pdf is stored as image/png', async () => {
    const t = await h.type(admin, { validity_period: 36 })
    const res = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-01-15', notes: 'scan' }, [
      ['file', 'Zertifikat Müller (final).pdf', FILES.png],
    ])
    expect(res.status).toBe(201)
    const { message, certification } = UserCertificationResponse.parse(res.body)
    expect(message).toBe(CERT_MESSAGES.uploaded)
    expect(certification).toMatchObject({
      obtained_date: '2025-01-15',
      expiration_date: '2028-01-15',
      notes: 'scan',
      file_name: 'Zertifikat Müller (final).pdf',
      file_type: 'image/png',
      file_size: FILES.png.length,
      file_path: `/technician/certifications/${certification.id}/file`,
      status: 'Uploaded',
    })
    expect(await leftovers()).toEqual({ files: [expect.stringMatching(/^proofs\//)], garbage: [] })
    expect((await h.events('certs.certification.added.v1')).at(-1)!.data).toMatchObject({ certificationId: certification.id, hasFile: true })

    // Viewed inline with its type; downloaded with its original name (RFC 5987), its extension the stored type's.
    const inline = await h.download(certification.file_path!, tech.token)
    expect(inline.status).toBe(200)
    expect(inline.bytes.equals(FILES.png)).toBe(true)
    expect(inline.headers.get('content-type')).toBe('image/png')
    expect(inline.headers.get('x-content-type-options')).toBe('nosniff')
    expect(inline.headers.get('content-disposition')).toBe(`inline; filename="Zertifikat M_ller (final).png"; filename*=UTF-8''Zertifikat%20M%C3%BCller%20%28final%29.png`)
    const attachment = await h.download(`${certification.file_path}?download=1`, tech.token)
    expect(attachment.headers.get('content-disposition')).toMatch(/^attachment; filename="Zertifikat M_ller \(final\)\.png"; filename\*=UTF-8''Zertifikat%20M%C3%BCller/)
  })

  it('keeps the name given but serves the proof under one that is safe: its type’s extension, no control or bidi characters', async () => {
    for (const [given, served] of [
      ['poly.html', 'poly.pdf'],
      ['poly.svg', 'poly.pdf'],
      ['report\u202Efdp.exe', 'reportfdp.pdf'],
    ]) {
      const t = await h.type(admin)
      const res = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-01-15' }, [['file', given!, FILES.pdf]])
      expect(res.status, given).toBe(201)
      const { certification } = UserCertificationResponse.parse(res.body)
      expect([certification.file_name, certification.file_type]).toEqual([given, 'application/pdf'])
      for (const [query, kind] of [
        ['', 'inline'],
        ['?download=1', 'attachment'],
      ]) {
        const file = await h.download(`${certification.file_path}${query}`, tech.token)
        expect(file.headers.get('content-disposition'), given).toBe(`${kind}; filename="${served}"; filename*=UTF-8''${served}`)
      }
    }
  })

  it('gives a held certification its proof and new dates (200, an update event); a later obtained date keeps the earlier period and its proof file', async () => {
    const t = await h.type(admin, { validity_period: 12 })
    const added = await add(tech, { certification_id: t.id, certification_number: 'KEEP', obtained_date: '2024-01-01' })
    const id = added.body.certification.id
    const first = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-03-01' }, [['file', 'a.pdf', FILES.pdf]])
    expect(first.status).toBe(200)
    expect(first.body.certification).toMatchObject({ id, certification_number: 'KEEP', obtained_date: '2025-03-01', expiration_date: '2026-03-01', file_type: 'application/pdf' })
    const before = await h.storage.list('proofs')
    const second = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-03-02', expiration_date: '2027-01-01' }, [
      ['file', 'b.jpg', FILES.jpeg],
    ])
    expect(second.body.certification).toMatchObject({ file_name: 'b.jpg', file_type: 'image/jpeg', expiration_date: '2027-01-01' })
    // The renewal keeps a.pdf with the period it ended (history, not overwrite).
    const after = await h.storage.list('proofs')
    expect(after.length).toBe(before.length + 1)
    expect(second.body.certification.history.map((p: { obtained_date: string; file_name: string | null; reason: string }) => [p.obtained_date, p.file_name, p.reason])).toEqual([
      ['2025-03-01', 'a.pdf', 'renewed'],
      ['2024-01-01', null, 'renewed'],
    ])
    expect((await h.events('certs.certification.updated.v1')).filter((e) => e.data.certificationId === id)).toHaveLength(2)
    expect(await h.sql('select key from storage_garbage')).toEqual([])
  })

  it('refuses a renamed executable (415), an 11 MB file (413), an empty file, no file, a wrong certification id: nothing stored, no orphan file', async () => {
    const t = await h.type(admin)
    const before = await leftovers()
    const rows = async () => (await h.sql('select count(*)::int as n from technician_certifications where user_id = ?', [tech.id]))[0]!.n
    const count = await rows()
    const up = (fields: Record<string, string>, files: [string, string, Uint8Array][]) => h.upload('/technician/certifications/upload', tech.token, fields, files)
    const fields = { certification_id: String(t.id), obtained_date: '2025-01-01' }

    expect(await up(fields, [['file', 'certificate.pdf', FILES.exe]])).toMatchObject({ status: 415, body: { code: 'unsupported_file_type', message: CERT_MESSAGES.fileType } })
    const big = Buffer.concat([FILES.pdf, Buffer.alloc(11 * MB)])
    expect(await up(fields, [['file', 'big.pdf', big]])).toMatchObject({ status: 413, body: { message: CERT_MESSAGES.fileSize } })
    expect(await up(fields, [['file', 'empty.pdf', new Uint8Array(0)]])).toMatchObject({ status: 400, body: { code: 'file_empty', message: CERT_MESSAGES.fileEmpty } })
    expect(await up(fields, [])).toMatchObject({ status: 400, body: { code: 'file_required', message: CERT_MESSAGES.fileRequired } })
    expect(await up({ ...fields, certification_id: '999999' }, [['file', 'a.pdf', FILES.pdf]])).toMatchObject({ status: 404, body: { code: 'certification_type_not_found' } })
    expect(await up({ certification_id: 'abc', obtained_date: '2025-01-01' }, [['file', 'a.pdf', FILES.pdf]])).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    expect(await up({ certification_id: String(t.id) }, [['file', 'a.pdf', FILES.pdf]])).toMatchObject({ status: 400, body: { message: CERT_MESSAGES.obtainedDateRequired } })
    expect(
      await up(fields, [
        ['file', 'a.pdf', FILES.pdf],
        ['file', 'b.pdf', FILES.pdf],
      ]),
    ).toMatchObject({ status: 400, body: { code: 'too_many_files' } })
    expect(await up(fields, [['other', 'a.pdf', FILES.pdf]])).toMatchObject({ status: 400, body: { code: 'unexpected_file' } })
    const notMultipart = await h.call('POST', '/technician/certifications/upload', { token: tech.token, body: fields })
    expect(notMultipart).toMatchObject({ status: 415 })

    expect(await rows()).toBe(count)
    expect(await leftovers()).toEqual(before)
  })

  it('checks that the caller may change that user before it reads the file: a technician uploading for someone else gets 403, nothing is written', async () => {
    const t = await h.type(admin)
    const other = await h.user()
    const before = await leftovers()
    const puts = vi.spyOn(h.storage, 'put')
    // The form as a browser sends it (fields, then the file), its 10 MB file produced only as it is read.
    const boundary = 'proof-boundary'
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const head = Buffer.from(
      field('certification_id', String(t.id)) +
        field('obtained_date', '2025-01-01') +
        field('user_id', other.id) +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    )
    const total = 10 * MB - 64 * 1024
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(Buffer.concat([head, FILES.pdf]))
        else if (sent < total) controller.enqueue(new Uint8Array(64 * 1024))
        else {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`))
          controller.close()
        }
        sent += 64 * 1024
      },
    })
    try {
      const res = await h.app.request('/technician/certifications/upload', {
        method: 'POST',
        headers: { authorization: `Bearer ${tech.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit)
      expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([403, 'not_your_certification'])
      expect(puts).not.toHaveBeenCalled()
      // Answered long before the body was all sent.
      expect(sent).toBeLessThan(MB)
    } finally {
      puts.mockRestore()
    }
    expect(await h.sql('select count(*)::int as n from technician_certifications where user_id = ?', [other.id])).toEqual([{ n: 0 }])
    expect(await leftovers()).toEqual(before)
  })

  it('reads the 10 MB limit exactly: 10,485,760 bytes pass, one more is refused', async () => {
    const t = await h.type(admin)
    const exact = Buffer.concat([FILES.pdf, Buffer.alloc(10 * MB - FILES.pdf.length)])
    const ok = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-01-01' }, [['file', 'x.pdf', exact]])
    expect(ok.status).toBe(201)
    const t2 = await h.type(admin)
    const over = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t2.id), obtained_date: '2025-01-01' }, [
      ['file', 'x.pdf', Buffer.concat([exact, Buffer.from('!')])],
    ])
    expect(over.status).toBe(413)
  })
})

describe('a held certification', () => {
  it('is edited (number kept when absent, dates and notes replaced) and announced', async () => {
    const t = await h.type(admin, { validity_period: 24 })
    const { certification } = UserCertificationResponse.parse(
      (await add(tech, { certification_id: t.id, certification_number: 'N-1', obtained_date: '2024-01-01', notes: 'x' })).body,
    )
    const res = await h.call('PUT', `/technician/certifications/${certification.id}`, { token: tech.token, body: { obtained_date: '2024-06-01' } })
    expect(res.status).toBe(200)
    expect(res.body.certification).toMatchObject({ certification_number: 'N-1', obtained_date: '2024-06-01', expiration_date: '2026-06-01', notes: null })
    expect(await h.call('PUT', `/technician/certifications/${certification.id}`, { token: tech.token, body: { certification_number: '' } })).toMatchObject({ status: 400 })
    expect(await h.call('PUT', '/technician/certifications/999999', { token: tech.token, body: {} })).toMatchObject({ status: 404, body: { code: 'certification_not_found' } })
    expect((await h.events('certs.certification.updated.v1')).at(-1)!.data).toMatchObject({ certificationId: certification.id, obtainedDate: '2024-06-01' })
  })

  it('has its proof replaced (the old one kept), deleted (then 404 on view and delete), and is deleted with its proof kept in its history', async () => {
    const t = await h.type(admin)
    const created = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-01-01' }, [['file', 'a.pdf', FILES.pdf]])
    const id = created.body.certification.id as number
    const replaced = await h.upload(`/technician/certifications/${id}/file`, tech.token, {}, [['file', 'b.png', FILES.png]])
    expect(replaced).toMatchObject({ status: 200, body: { certification: { file_name: 'b.png', file_type: 'image/png' } } })
    expect((await h.download(`/technician/certifications/${id}/file`, tech.token)).bytes.equals(FILES.png)).toBe(true)
    const keyOf = async () => (await h.sql('select file_key from technician_certifications where id = ?', [id]))[0]?.file_key as string | null
    const key = (await keyOf())!
    expect(await h.upload(`/technician/certifications/${id}/file`, tech.token, {}, [['file', 'c.exe', FILES.exe]])).toMatchObject({ status: 415 })
    expect(await keyOf()).toBe(key)

    const deleted = await h.call('DELETE', `/technician/certifications/${id}/file`, { token: tech.token })
    expect(deleted).toMatchObject({ status: 200, body: { certification: { file_name: null, file_path: null, status: 'Not Uploaded' } } })
    expect(await h.storage.stat(key)).toBeNull()
    expect(await h.download(`/technician/certifications/${id}/file`, tech.token)).toMatchObject({ status: 404 })
    expect(await h.call('DELETE', `/technician/certifications/${id}/file`, { token: tech.token })).toMatchObject({ status: 404, body: { code: 'file_not_found' } })

    await h.upload(`/technician/certifications/${id}/file`, tech.token, {}, [['file', 'd.pdf', FILES.pdf]])
    const last = (await keyOf())!
    expect(await h.call('DELETE', `/technician/certifications/${id}`, { token: tech.token })).toMatchObject({
      status: 200,
      body: { message: CERT_MESSAGES.deleted, history_path: `/technician/certifications/${id}/history` },
    })
    expect(await keyOf()).toBeUndefined()
    expect(await h.storage.stat(last)).not.toBeNull()
    expect(await h.sql('select reason, file_name from technician_certification_periods where technician_certification_id = ? order by id', [id])).toEqual([
      { reason: 'replaced', file_name: 'a.pdf' },
      { reason: 'deleted', file_name: 'd.pdf' },
    ])
    expect((await h.events('certs.certification.deleted.v1')).at(-1)!.data).toEqual({ certificationId: id, userId: tech.id, certificationTypeId: t.id })
    expect(await h.call('DELETE', `/technician/certifications/${id}`, { token: tech.token })).toMatchObject({ status: 404 })
  })
})

describe('GET /technician/certifications/available/{userId}', () => {
  it('lists active types for the user’s department (or every department) not held yet', async () => {
    const me = await h.user({ branch: 'Seattle', department: 'Testing' })
    const mine = await h.type(admin, { department: 'Testing', name: 'Testing only' })
    const elsewhere = await h.type(admin, { department: 'Construction' })
    const everyone = await h.type(admin, { department: null })
    const inactive = await h.type(admin, { is_active: false })
    const held = await h.type(admin)
    await add(me, { certification_id: held.id, certification_number: 'H' })
    const res = await h.call('GET', `/technician/certifications/available/${me.id}`, { token: me.token })
    const ids = AvailableCertificationsResponse.parse(res.body).certifications.map((c) => c.id)
    expect(ids).toEqual(expect.arrayContaining([mine.id, everyone.id]))
    expect(ids).not.toContain(elsewhere.id)
    expect(ids).not.toContain(inactive.id)
    expect(ids).not.toContain(held.id)
  })
})
