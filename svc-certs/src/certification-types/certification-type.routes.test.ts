import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CERT_MESSAGES, CertificationTypeResponse, CertificationTypesResponse, CertificationsOverview, TierRequirementsResponse } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let manager: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  tech = await h.user()
  manager = await h.user({ manager: { branches: [], departments: [] } })
})
afterAll(async () => {
  await h?.close()
})

describe('certification types (admin §3, §7, §9)', () => {
  it('creates a type with the defaults of §9, lists it with its holders, and answers {certification}/{certifications}', async () => {
    const created = await h.call('POST', '/admin/certifications', { token: admin.token, body: { name: '  Ladder Safety ', code: 'LADDER' } })
    expect(created.status).toBe(201)
    const { certification } = CertificationTypeResponse.parse(created.body)
    expect(certification).toMatchObject({
      name: 'Ladder Safety',
      code: 'LADDER',
      tier_level: 0,
      department: null,
      validity_period: null,
      upload_required: true,
      is_active: true,
      training_link: null,
      description: null,
      holders: 0,
    })
    const list = CertificationTypesResponse.parse((await h.call('GET', '/admin/certifications', { token: admin.token })).body)
    expect(list.certifications.find((c) => c.id === certification.id)).toMatchObject({ code: 'LADDER', holders: 0 })
  })

  it('takes every field of the form and edits them all', async () => {
    const body = {
      name: 'Arc Flash',
      code: 'ARC-1',
      tier_level: 2,
      department: 'Electricians',
      training_link: 'https://training.acme.test/arc',
      validity_period: 36,
      upload_required: false,
      is_active: true,
      description: 'Arc flash awareness',
    }
    const { certification } = CertificationTypeResponse.parse((await h.call('POST', '/admin/certifications', { token: admin.token, body })).body)
    expect(certification).toMatchObject(body)
    const edited = await h.call('PUT', `/admin/certifications/${certification.id}`, {
      token: admin.token,
      body: { ...body, name: 'Arc Flash II', department: null, validity_period: null, is_active: false, training_link: '' },
    })
    expect(edited.status).toBe(200)
    expect(CertificationTypeResponse.parse(edited.body).certification).toMatchObject({
      name: 'Arc Flash II',
      department: null,
      validity_period: null,
      is_active: false,
      training_link: null,
    })
  })

  it('refuses bad input with the spec’s messages and a duplicate code (any case) with 409', async () => {
    const bad = async (body: unknown) => h.call('POST', '/admin/certifications', { token: admin.token, body })
    expect(await bad({ code: 'X1' })).toMatchObject({ status: 400, body: { code: 'validation_failed', message: CERT_MESSAGES.nameRequired } })
    expect(await bad({ name: 'X', code: '  ' })).toMatchObject({ status: 400, body: { message: CERT_MESSAGES.codeRequired } })
    expect(await bad({ name: 'X', code: 'X2', tier_level: 4 })).toMatchObject({ status: 400 })
    expect(await bad({ name: 'X', code: 'X3', department: 'Plumbing' })).toMatchObject({ status: 400 })
    expect(await bad({ name: 'X', code: 'X4', validity_period: 0 })).toMatchObject({ status: 400 })
    expect(await bad({ name: 'X', code: 'X5', training_link: 'javascript:alert(1)' })).toMatchObject({ status: 400, body: { message: CERT_MESSAGES.trainingLinkInvalid } })
    await h.type(admin, { code: 'DUP-1' })
    expect(await bad({ name: 'Other', code: 'dup-1' })).toMatchObject({ status: 409, body: { code: 'code_taken', message: CERT_MESSAGES.codeTaken } })
    const other = await h.type(admin, { code: 'DUP-2' })
    expect(await h.call('PUT', `/admin/certifications/${other.id}`, { token: admin.token, body: { name: 'Other', code: 'Dup-1' } })).toMatchObject({
      status: 409,
      body: { code: 'code_taken' },
    })
    expect(await h.call('PUT', '/admin/certifications/999999', { token: admin.token, body: { name: 'N', code: 'N-1' } })).toMatchObject({
      status: 404,
      body: { code: 'certification_type_not_found' },
    })
  })

  it('deletes a type nobody holds with its tier requirements; a held one is refused with 409 certification_in_use and kept', async () => {
    const free = await h.type(admin)
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: free.id } })
    expect(await h.call('DELETE', `/admin/certifications/${free.id}`, { token: admin.token })).toMatchObject({ status: 200 })
    expect(await h.sql('select * from tier_requirements where certification_id = ?', [free.id])).toEqual([])
    expect(await h.call('DELETE', `/admin/certifications/${free.id}`, { token: admin.token })).toMatchObject({ status: 404 })

    const held = await h.type(admin)
    await h.call('POST', '/technician/certifications/add', { token: tech.token, body: { certification_id: held.id, certification_number: 'N-1' } })
    const refused = await h.call('DELETE', `/admin/certifications/${held.id}`, { token: admin.token })
    expect(refused).toMatchObject({ status: 409, body: { code: 'certification_in_use' } })
    expect(refused.body.message).toMatch(/held by 1 technician; mark it inactive/)
    expect(await h.sql('select id from certification_types where id = ?', [held.id])).toHaveLength(1)
    const list = CertificationTypesResponse.parse((await h.call('GET', '/admin/certifications', { token: admin.token })).body)
    expect(list.certifications.find((c) => c.id === held.id)?.holders).toBe(1)
  })
})

describe('tier requirements', () => {
  it('adds, changes and removes a type’s requirement per tier, listed with the type', async () => {
    const t = await h.type(admin, { name: 'Rigging', tier_level: 1 })
    const put = await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: t.id } })
    expect(put.status).toBe(200)
    let reqs = TierRequirementsResponse.parse(put.body).requirements.filter((r) => r.certification_id === t.id)
    expect(reqs).toEqual([expect.objectContaining({ tier_level: 1, is_required: true, certification: expect.objectContaining({ name: 'Rigging' }) })])
    // The same tier and type again changes it (one per tier and type).
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: t.id, is_required: false } })
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 2, certification_id: t.id } })
    reqs = TierRequirementsResponse.parse((await h.call('GET', '/admin/certifications/tier-requirements', { token: admin.token })).body).requirements.filter(
      (r) => r.certification_id === t.id,
    )
    expect(reqs.map((r) => [r.tier_level, r.is_required])).toEqual([
      [1, false],
      [2, true],
    ])
    const removed = await h.call('DELETE', `/admin/certifications/tier-requirements/${reqs[0]!.id}`, { token: admin.token })
    expect(
      TierRequirementsResponse.parse(removed.body)
        .requirements.filter((r) => r.certification_id === t.id)
        .map((r) => r.tier_level),
    ).toEqual([2])
    expect(await h.call('DELETE', `/admin/certifications/tier-requirements/${reqs[0]!.id}`, { token: admin.token })).toMatchObject({ status: 404 })
    expect(await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: 999999 } })).toMatchObject({
      status: 404,
    })
    expect(await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 5, certification_id: t.id } })).toMatchObject({
      status: 400,
    })
  })
})

describe('the overview', () => {
  it('counts types, technicians (non-admins), those compliant, and expired and expiring certifications', async () => {
    const res = await h.call('GET', '/admin/certifications/overview', { token: admin.token })
    expect(res.status).toBe(200)
    const o = CertificationsOverview.parse(res.body)
    expect(o.types_total).toBeGreaterThan(0)
    expect(o.types_active).toBeLessThan(o.types_total)
    expect(o.technicians).toBeGreaterThanOrEqual(2)
    expect(o.requirements_met).toBeLessThanOrEqual(o.technicians)
    expect(o.no_expired).toBeLessThanOrEqual(o.technicians)
  })
})

describe('who may call the admin routes', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/admin/certifications'],
    ['POST', '/admin/certifications', { name: 'N', code: 'NOPE' }],
    ['PUT', '/admin/certifications/1', { name: 'N', code: 'NOPE' }],
    ['DELETE', '/admin/certifications/1'],
    ['GET', '/admin/certifications/overview'],
    ['GET', '/admin/certifications/tier-requirements'],
    ['PUT', '/admin/certifications/tier-requirements', { tier_level: 0, certification_id: 1 }],
    ['DELETE', '/admin/certifications/tier-requirements/1'],
  ]
  it.each(routes)('%s %s: 401 without a token, 403 for technicians and managers', async (method, path, body) => {
    expect(await h.call(method, path, { body })).toMatchObject({ status: 401, body: { code: 'invalid_token' } })
    expect(await h.call(method, path, { token: tech.token, body })).toMatchObject({ status: 403, body: { code: 'admin_required' } })
    expect(await h.call(method, path, { token: manager.token, body })).toMatchObject({ status: 403, body: { code: 'admin_required' } })
  })
})

describe('courses and exams that renew a type (issue 24: renewed_by)', () => {
  const course = { item_kind: 'course', item_id: 11, item_title: 'Ladder Refresher' } as const
  const exam = { item_kind: 'exam', item_id: 22, item_title: 'Ladder Exam' } as const

  it('stores them in the admin’s order, returns them on every type (empty when none), and replaces them on an edit', async () => {
    const created = await h.call('POST', '/admin/certifications', { token: admin.token, body: { name: 'Ladder Renewed', code: 'LADDER-R', renewed_by: [exam, course] } })
    expect(created.status).toBe(201)
    const { certification } = CertificationTypeResponse.parse(created.body)
    expect(certification.renewed_by).toEqual([exam, course])
    const listed = CertificationTypesResponse.parse((await h.call('GET', '/admin/certifications', { token: admin.token })).body).certifications
    expect(listed.find((c) => c.id === certification.id)!.renewed_by).toEqual([exam, course])
    expect(listed.find((c) => c.code === 'LADDER')!.renewed_by).toEqual([])
    const edited = await h.call('PUT', `/admin/certifications/${certification.id}`, {
      token: admin.token,
      body: { name: 'Ladder Renewed', code: 'LADDER-R', renewed_by: [course] },
    })
    expect(CertificationTypeResponse.parse(edited.body).certification.renewed_by).toEqual([course])
    // The spec's form has no such field: a PUT that leaves it out keeps the list; an empty list clears it.
    const kept = await h.call('PUT', `/admin/certifications/${certification.id}`, { token: admin.token, body: { name: 'Ladder Renewed', code: 'LADDER-R' } })
    expect(CertificationTypeResponse.parse(kept.body).certification.renewed_by).toEqual([course])
    expect(await h.sql('select item_id from certification_type_renewals where certification_type_id = ?', [certification.id])).toHaveLength(1)
    await h.call('PUT', `/admin/certifications/${certification.id}`, { token: admin.token, body: { name: 'Ladder Renewed', code: 'LADDER-R', renewed_by: [] } })
    expect(await h.sql('select * from certification_type_renewals where certification_type_id = ?', [certification.id])).toEqual([])
  })

  it('refuses a bad entry or an item listed twice with 400 naming renewed_by, storing nothing', async () => {
    const t = await h.type(admin, { renewed_by: [course] })
    const put = (renewed_by: unknown) => h.call('PUT', `/admin/certifications/${t.id}`, { token: admin.token, body: { name: t.name, code: t.code, renewed_by } })
    for (const [bad, path] of [
      [[{ ...course, item_kind: 'module' }], 'renewed_by.0.item_kind'],
      [[course, { ...exam, item_id: 0 }], 'renewed_by.1.item_id'],
      [[{ ...exam, item_title: '  ' }], 'renewed_by.0.item_title'],
      ['course 11', 'renewed_by'],
    ] as const) {
      const res = await put(bad)
      expect(res).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]))
    }
    const twice = await put([course, exam, { ...course, item_title: 'Same course again' }])
    expect(twice).toMatchObject({ status: 400, body: { code: 'renewed_by_duplicate', details: [{ path: 'renewed_by.2' }] } })
    expect(twice.body.message).toContain('Same course again')
    expect(await h.call('POST', '/admin/certifications', { token: admin.token, body: { name: 'Twice', code: 'TWICE-1', renewed_by: [exam, exam] } })).toMatchObject({
      status: 400,
      body: { code: 'renewed_by_duplicate' },
    })
    expect(await h.sql("select id from certification_types where code = 'TWICE-1'")).toEqual([])
    expect((await h.call('GET', '/admin/certifications', { token: admin.token })).body.certifications.find((c: { id: number }) => c.id === t.id).renewed_by).toEqual([course])
  })

  it('records the change in the audit trail like any other change of the type', async () => {
    const t = await h.type(admin, { code: 'AUDIT-R', renewed_by: [course] })
    await h.call('PUT', `/admin/certifications/${t.id}`, { token: admin.token, body: { name: t.name, code: 'AUDIT-R', renewed_by: [course, exam] } })
    const [created] = await h.sql("select details from audit_log where action = 'certification_type.created' and target = 'AUDIT-R'")
    expect(created!.details.renewed_by).toEqual(['course 11: Ladder Refresher'])
    const [updated] = await h.sql("select actor_id, details from audit_log where action = 'certification_type.updated' and target = 'AUDIT-R'")
    expect(updated).toMatchObject({
      actor_id: admin.id,
      details: { before: { renewed_by: ['course 11: Ladder Refresher'] }, after: { renewed_by: ['course 11: Ladder Refresher', 'exam 22: Ladder Exam'] } },
    })
  })
})
