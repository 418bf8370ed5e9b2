import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CertificationTypeResponse } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from './harness.test-support.ts'

// The platform's Idempotency-Key (server-kit's idempotency.ts) on the service as it is assembled:
// nothing in certs' own code, yet its writes sent again are not done again.
let h: Harness
let admin: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
})
afterAll(async () => {
  await h?.close()
})

describe("certs' writes with an Idempotency-Key", () => {
  it('creates one certification type for a create sent twice with one key, and answers the second as the first', async () => {
    const body = { name: 'Confined Space', code: `CS-${crypto.randomUUID().slice(0, 8)}`, tier_level: 1, validity_period: 12 }
    const headers = { 'idempotency-key': crypto.randomUUID() }
    const first = await h.call('POST', '/admin/certifications', { token: admin.token, body, headers })
    const again = await h.call('POST', '/admin/certifications', { token: admin.token, body, headers })
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    const { certification } = CertificationTypeResponse.parse(first.body)
    expect(await h.sql('select id from certification_types where code = ?', [body.code])).toEqual([{ id: certification.id }])
    // One audit entry for the one type made.
    expect(await h.sql("select action from audit_log where target = ? and action = 'certification_type.created'", [body.code])).toHaveLength(1)
  })

  it('does the same create without a key twice: the second is the conflict the code makes', async () => {
    const body = { name: 'Fall Arrest', code: `FA-${crypto.randomUUID().slice(0, 8)}` }
    expect((await h.call('POST', '/admin/certifications', { token: admin.token, body })).status).toBe(201)
    const second = await h.call('POST', '/admin/certifications', { token: admin.token, body })
    expect(second.status).toBe(409)
    expect(second.headers.get('idempotent-replayed')).toBeNull()
  })
})
