import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { malformedBodyAnswers } from '@portal/server-kit/testing'
import { createHarness, type Harness } from './harness.test-support.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h?.close())

describe('bad input on every route (DESIGN "Errors": never a 500)', () => {
  it('answers the acknowledgement form a multipart type with a body that is not multipart with 400, not 500', async () => {
    for (const contentType of ['multipart/form-data; boundary=----x', 'multipart/form-data']) {
      const res = await h.app.request('/certification-notifications/acknowledge', { method: 'POST', headers: { 'content-type': contentType }, body: '{"token":"abc"}' })
      expect([res.status, await res.json()], contentType).toEqual([400, { message: 'Malformed multipart body', code: 'invalid_multipart' }])
    }
  })

  it('answers malformed bodies of every type on every route that takes one with a 4xx in the error shape', async () => {
    const admin = await h.user({ admin: true })
    const tech = await h.user()
    const type = await h.type(admin)
    const cert = await h.call('POST', '/technician/certifications/add', { token: admin.token, body: { certification_id: type.id, certification_number: 'F-1', user_id: tech.id } })
    expect(cert.status).toBe(201)
    expect(await malformedBodyAnswers(h.app, { token: admin.token, params: { id: String(cert.body.certification.id), userId: tech.id } })).toEqual([])
  })
})
