import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditEntriesResponse } from '@portal/contracts'
import { createHarness, examInput, type Harness, type TestUser } from './harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin' })
  tech = await h.user()
})
afterAll(async () => {
  await h?.close()
})

const trail = async (query = '') => AuditEntriesResponse.parse((await h.call('GET', `/admin/audit/learning${query}`, { token: admin.token })).body)

describe('learning’s audit trail (decision 0030)', () => {
  it('records who created, edited and deleted an exam, newest first, filtered by who, what and when', async () => {
    const created = await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'Audited Exam' }) })
    expect(created.status).toBe(201)
    const id = created.body.id as number
    expect((await h.call('PUT', `/exams/${id}`, { token: admin.token, body: examInput({ name: 'Audited Exam II' }) })).status).toBe(200)
    expect((await h.call('DELETE', `/exams/${id}`, { token: admin.token })).status).toBe(200)
    // A refused change leaves no trace.
    expect((await h.call('DELETE', `/exams/${id}`, { token: admin.token })).status).toBe(404)
    const mine = (await trail(`?actor=${encodeURIComponent('ada')}`)).filter((e) => e.target.includes('Audited Exam') || e.target === `exam ${id}`)
    expect(mine.map((e) => [e.service, e.actor_id, e.actor_name, e.action, e.target])).toEqual([
      ['learning', admin.id, 'Ada Admin', 'exam.deleted', `exam ${id}`],
      ['learning', admin.id, 'Ada Admin', 'exam.updated', 'Audited Exam II'],
      ['learning', admin.id, 'Ada Admin', 'exam.created', 'Audited Exam'],
    ])
    expect((await trail('?action=exam.updated')).every((e) => e.action === 'exam.updated')).toBe(true)
    expect(await trail('?actor=nobody-at-all')).toEqual([])
    expect(await trail('?to=2000-01-01')).toEqual([])
    expect((await trail(`?from=${new Date(Date.now() - 60_000).toISOString()}`)).length).toBeGreaterThanOrEqual(3)
    expect((await h.call('GET', '/admin/audit/learning?from=yesterday', { token: admin.token })).status).toBe(400)
  })

  it('records a question retired from an exam and put back (issue 27), and not a refused retirement', async () => {
    const created = await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'Retiring Exam' }) })
    const exam = created.body as { id: number; questions: { id: number }[] }
    const [first, second] = exam.questions
    expect((await h.call('POST', `/admin/exams/${exam.id}/questions/${first!.id}/retire`, { token: admin.token })).status).toBe(200)
    // A pool of 4 drawing 3: a second retirement is refused and leaves no trace.
    expect((await h.call('POST', `/admin/exams/${exam.id}/questions/${second!.id}/retire`, { token: admin.token })).status).toBe(422)
    expect((await h.call('POST', `/admin/exams/${exam.id}/questions/${first!.id}/restore`, { token: admin.token })).status).toBe(200)
    const mine = (await trail()).filter((e) => e.target.endsWith('of Retiring Exam'))
    expect(mine.map((e) => [e.action, e.target])).toEqual([
      ['exam.question_restored', `question ${first!.id} of Retiring Exam`],
      ['exam.question_retired', `question ${first!.id} of Retiring Exam`],
    ])
  })

  it('is for admins only', async () => {
    expect((await h.call('GET', '/admin/audit/learning')).status).toBe(401)
    expect((await h.call('GET', '/admin/audit/learning', { token: tech.token })).status).toBe(403)
  })
})
