import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminEmail, AdminEmailsResponse, AuditEntriesResponse, NOTIFY_MESSAGES } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let manager: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin' })
  tech = await h.user()
  manager = await h.user({ manager: true })
})
afterAll(async () => {
  await h?.close()
})

const add = (body: unknown, token = admin.token) => h.call('POST', '/admin/emails', { token, body })

describe('admin e-mails (admin §2 Email Notification Management, §3, §5, §7)', () => {
  it('adds an address with both notification types by default (§9), lists it and answers it', async () => {
    const res = await add({ email: '  Lead@Acme.test ', name: ' Team Lead ' })
    expect(res.status).toBe(201)
    const created = AdminEmail.parse(res.body)
    expect(created).toMatchObject({ email: 'lead@acme.test', name: 'Team Lead', notification_types: ['exam_completion', 'course_completion'], is_active: true })
    const list = AdminEmailsResponse.parse((await h.call('GET', '/admin/emails', { token: admin.token })).body)
    expect(list.find((e) => e.id === created.id)).toEqual(created)
  })

  it('keeps a name optional (null) and only the types chosen', async () => {
    const created = AdminEmail.parse((await add({ email: 'exams@acme.test', name: null, notification_types: ['exam_completion'] })).body)
    expect(created).toMatchObject({ name: null, notification_types: ['exam_completion'] })
    expect(AdminEmail.parse((await add({ email: 'blank@acme.test', name: '   ' })).body).name).toBeNull()
  })

  it('refuses a missing or bad address with the spec’s message, no type, and a duplicate (any case) with 409', async () => {
    expect(await add({ name: 'X' })).toMatchObject({ status: 400, body: { code: 'validation_failed', message: NOTIFY_MESSAGES.emailRequired } })
    expect(await add({ email: '   ' })).toMatchObject({ status: 400, body: { message: NOTIFY_MESSAGES.emailRequired } })
    expect(await add({ email: 'not-an-email' })).toMatchObject({ status: 400, body: { message: NOTIFY_MESSAGES.emailInvalid } })
    expect(await add({ email: 'none@acme.test', notification_types: [] })).toMatchObject({ status: 400, body: { message: NOTIFY_MESSAGES.typesRequired } })
    expect(await add({ email: 'odd@acme.test', notification_types: ['weekly_digest'] })).toMatchObject({ status: 400 })
    await add({ email: 'dup@acme.test' })
    expect(await add({ email: 'DUP@acme.test' })).toMatchObject({ status: 409, body: { code: 'admin_email_taken', message: NOTIFY_MESSAGES.emailTaken } })
    expect(await h.call('POST', '/admin/emails', { token: admin.token, raw: '{"email":' })).toMatchObject({ status: 400 })
  })

  it('edits address, name and types; refuses another row’s address and an unknown id', async () => {
    const a = AdminEmail.parse((await add({ email: 'edit-a@acme.test' })).body)
    await add({ email: 'edit-b@acme.test' })
    const edited = await h.call('PUT', `/admin/emails/${a.id}`, {
      token: admin.token,
      body: { email: 'Edited@acme.test', name: 'Edited', notification_types: ['course_completion'] },
    })
    expect(edited.status).toBe(200)
    expect(AdminEmail.parse(edited.body)).toMatchObject({ id: a.id, email: 'edited@acme.test', name: 'Edited', notification_types: ['course_completion'], is_active: true })
    // Its own address again is no conflict.
    expect((await h.call('PUT', `/admin/emails/${a.id}`, { token: admin.token, body: { email: 'edited@acme.test' } })).status).toBe(200)
    expect(await h.call('PUT', `/admin/emails/${a.id}`, { token: admin.token, body: { email: 'edit-b@acme.test' } })).toMatchObject({
      status: 409,
      body: { code: 'admin_email_taken' },
    })
    expect(await h.call('PUT', '/admin/emails/999999', { token: admin.token, body: { email: 'x@acme.test' } })).toMatchObject({
      status: 404,
      body: { code: 'admin_email_not_found' },
    })
    expect((await h.call('PUT', '/admin/emails/abc', { token: admin.token, body: { email: 'x@acme.test' } })).status).toBe(404)
  })

  it('toggles active and back, and deletes', async () => {
    const e = AdminEmail.parse((await add({ email: 'toggle@acme.test' })).body)
    const off = await h.call('PATCH', `/admin/emails/${e.id}/toggle`, { token: admin.token })
    expect(off).toMatchObject({ status: 200, body: { is_active: false } })
    expect((await h.call('PATCH', `/admin/emails/${e.id}/toggle`, { token: admin.token })).body).toMatchObject({ is_active: true })
    expect(await h.call('DELETE', `/admin/emails/${e.id}`, { token: admin.token })).toMatchObject({ status: 200, body: { message: 'Admin email deleted' } })
    expect(await h.call('DELETE', `/admin/emails/${e.id}`, { token: admin.token })).toMatchObject({ status: 404, body: { code: 'admin_email_not_found' } })
    expect(await h.call('PATCH', `/admin/emails/${e.id}/toggle`, { token: admin.token })).toMatchObject({ status: 404 })
  })

  it('records who changed what in the audit trail, readable by admins only', async () => {
    const e = AdminEmail.parse((await add({ email: 'audited@acme.test' })).body)
    await h.call('PATCH', `/admin/emails/${e.id}/toggle`, { token: admin.token })
    await h.call('DELETE', `/admin/emails/${e.id}`, { token: admin.token })
    const trail = await h.call('GET', '/admin/audit/notify?action=audited%40acme', { token: admin.token })
    expect(trail.status).toBe(200)
    expect(AuditEntriesResponse.parse(trail.body).map((e) => [e.service, e.actor_id, e.actor_name, e.action, e.target])).toEqual([
      ['notify', admin.id, 'Ada Admin', 'admin_email.deleted', 'audited@acme.test'],
      ['notify', admin.id, 'Ada Admin', 'admin_email.deactivated', 'audited@acme.test'],
      ['notify', admin.id, 'Ada Admin', 'admin_email.added', 'audited@acme.test'],
    ])
    expect((await h.call('GET', '/admin/audit/notify', { token: tech.token })).status).toBe(403)
    expect((await h.call('GET', '/admin/audit/notify')).status).toBe(401)
  })

  it('is for admins only: 401 without a token, 403 for a manager or a technician, on every call', async () => {
    const e = AdminEmail.parse((await add({ email: 'matrix@acme.test' })).body)
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/emails'],
      ['POST', '/admin/emails', { email: 'm2@acme.test' }],
      ['PUT', `/admin/emails/${e.id}`, { email: 'm3@acme.test' }],
      ['PATCH', `/admin/emails/${e.id}/toggle`],
      ['DELETE', `/admin/emails/${e.id}`],
    ]
    for (const [method, path, body] of calls) {
      expect((await h.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      expect((await h.call(method, path, { token: manager.token, body })).status, `${method} ${path} manager`).toBe(403)
      expect(await h.call(method, path, { token: tech.token, body }), `${method} ${path} technician`).toMatchObject({ status: 403 })
    }
    // Nothing changed.
    expect(AdminEmailsResponse.parse((await h.call('GET', '/admin/emails', { token: admin.token })).body).find((x) => x.id === e.id)).toMatchObject({ is_active: true })
  })
})
