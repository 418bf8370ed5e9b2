import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, StartAttemptResponse, UserStats } from '@portal/contracts'
import { createTokenIssuer } from '@portal/server-kit'
import { correctAnswersAsShown, createHarness, examInput, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let other: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  tech = await h.user()
  other = await h.user()
})
afterAll(async () => {
  await h?.close()
})

/** Takes the exam answering `correct` of its 4 questions right (all weights 1). */
const take = async (name: string, correct: number) => {
  const qs = (examInput().questions as Record<string, unknown>[]).map((q) => ({ ...q, category_weight: 1 }))
  const exam = Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput({ name, total_questions: 4, questions: qs }) })).body)
  const attempt = StartAttemptResponse.parse((await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })).body)
  const right = correctAnswersAsShown(exam, attempt)
  const answers = attempt.questions.map((_, i) => (i < correct ? right[i]! : -1))
  const res = await h.call('POST', `/exams/${exam.id}/submit`, {
    token: tech.token,
    body: { attemptId: attempt.attemptId, answers, questionIds: attempt.questions.map((q) => q.id) },
  })
  expect(res.status).toBe(200)
  h.advance(1000)
}

describe('GET /users/{id}/stats', () => {
  it('is all zeros for a user who took nothing', async () => {
    const res = await h.call('GET', `/users/${other.id}/stats`, { token: other.token })
    expect(res.status).toBe(200)
    expect(UserStats.parse(res.body)).toEqual({
      examsTaken: 0,
      averageScore: 0,
      highestScore: 0,
      lowestScore: 0,
      coursesStarted: 0,
      coursesCompleted: 0,
      averageCourseProgress: 0,
      examHistory: [],
      courseHistory: [],
    })
  })
  it('sums up the graded attempts, newest first; unfinished attempts do not count', async () => {
    await take('First', 4)
    await take('Second', 1)
    await take('Third', 3)
    const pending = Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'Pending' }) })).body)
    expect((await h.call('POST', `/exams/${pending.id}/attempts`, { token: tech.token })).status).toBe(201)
    const res = await h.call('GET', `/users/${tech.id}/stats`, { token: tech.token })
    const stats = UserStats.parse(res.body)
    expect(stats).toMatchObject({ examsTaken: 3, averageScore: 66.67, highestScore: 100, lowestScore: 25 })
    expect(stats.examHistory.map((e) => [e.examName, e.score, e.passed])).toEqual([
      ['Third', 75, true],
      ['Second', 25, false],
      ['First', 100, true],
    ])
  })
  it('is for the user themself, managers whose scope covers them and admins', async () => {
    expect((await h.call('GET', `/users/${tech.id}/stats`, { token: admin.token })).body.examsTaken).toBe(3)
    expect(await h.call('GET', `/users/${tech.id}/stats`, { token: other.token })).toMatchObject({ status: 403, body: { code: 'forbidden' } })
    expect((await h.call('GET', `/users/${tech.id}/stats`)).status).toBe(401)
    expect((await h.call('GET', '/users/123/stats', { token: admin.token })).status).toBe(400)

    const portland = await h.user({ branch: 'Portland', department: 'Service' })
    const seattle = await h.user({ branch: 'Seattle', department: 'Service' })
    const manager = await h.user({ manager: { branches: ['Portland'], departments: [] }, branch: 'Portland', department: 'Service' })
    const everywhere = await h.user({ manager: { branches: [], departments: [] } })
    expect(await h.call('GET', `/users/${portland.id}/stats`, { token: manager.token })).toMatchObject({ status: 200, body: { examsTaken: 0 } })
    expect(await h.call('GET', `/users/${seattle.id}/stats`, { token: manager.token })).toMatchObject({ status: 403, body: { code: 'forbidden' } })
    // No branch yet: outside a scope that names branches.
    expect((await h.call('GET', `/users/${tech.id}/stats`, { token: manager.token })).status).toBe(403)
    expect((await h.call('GET', `/users/${seattle.id}/stats`, { token: everywhere.token })).status).toBe(200)
    expect((await h.call('GET', `/users/${manager.id}/stats`, { token: portland.token })).status).toBe(403)
  })

  it('answers 404 for a user identity does not know or deleted; a technician gets 403 for any id but their own', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    const notFound = { status: 404, body: { message: 'User not found', code: 'user_not_found' } }
    expect(await h.call('GET', `/users/${unknown}/stats`, { token: admin.token })).toEqual(notFound)
    const manager = await h.user({ manager: { branches: [], departments: [] } })
    expect(await h.call('GET', `/users/${unknown}/stats`, { token: manager.token })).toEqual(notFound)
    expect(await h.call('GET', `/users/${unknown}/stats`, { token: other.token })).toMatchObject({ status: 403 })

    const gone = await h.user()
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: gone.id } })
    expect(await h.call('GET', `/users/${gone.id}/stats`, { token: admin.token })).toEqual(notFound)
    // The deleted user's own token no longer works at all (the shell ends the session).
    expect(await h.call('GET', `/users/${gone.id}/stats`, { token: gone.token })).toMatchObject({ status: 401, body: { code: 'token_stale', expired: true } })
    // A user whose registration has not reached learning yet still reads their own stats (the
    // shell checks a session with this call), but nobody else's.
    const early = { userId: crypto.randomUUID(), email: 'early@acme.test', name: 'Early', isAdmin: false, isManager: false, managerScope: { branches: [], departments: [] } }
    const token = await h.issuer.sign(early)
    const own = await h.call('GET', `/users/${early.userId}/stats`, { token })
    expect([own.status, own.body.examsTaken, own.body.coursesStarted]).toEqual([200, 0, 0])
    expect(await h.call('GET', `/users/${early.userId}/stats`, { token: admin.token })).toEqual(notFound)
  })
  it('answers 401 with expired: true for an expired token, and 401 for a forged one', async () => {
    const expired = await createTokenIssuer(h.key, { issuer: h.env.JWT_ISSUER, audience: h.env.JWT_AUDIENCE, ttlSeconds: -3600 }).sign(tech.actor)
    expect(await h.call('GET', `/users/${tech.id}/stats`, { token: expired })).toMatchObject({ status: 401, body: { expired: true } })
    expect(await h.call('GET', `/users/${tech.id}/stats`, { token: `${tech.token.slice(0, -4)}AAAA` })).toMatchObject({ status: 401, body: { code: 'invalid_token' } })
  })
})
