import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, StartAttemptResponse } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { createHarness, examInput, type Harness } from '../test-harness.ts'
import { createIdentityHandler, subscribeIdentity } from './identity.consumer.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('identity.user.deleted.v1', () => {
  it('drops the user’s assignments and unfinished attempts, keeps graded ones, once per event', async () => {
    const admin = await h.user({ admin: true })
    const gone = await h.user()
    const stays = await h.user()
    const exam = Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput({ is_assigned_to_all: false }) })).body)
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [gone.id, stays.id] } })
    const open = await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'Open' }) })
    const graded = StartAttemptResponse.parse((await h.call('POST', `/exams/${exam.id}/attempts`, { token: gone.token })).body)
    await h.call('POST', `/exams/${exam.id}/submit`, { token: gone.token, body: { attemptId: graded.attemptId, answers: [-1, -1, -1], questionIds: graded.questions.map((q) => q.id) } })
    await h.call('POST', `/exams/${open.body.id}/attempts`, { token: gone.token })

    const sub = await subscribeIdentity(h.bus, createIdentityHandler({ orm: h.orm, logger: silentLogger }))
    const event = { id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: gone.id } }
    await h.bus.publish(event)
    expect(await h.sql('select user_id from exam_assignments where exam_id = ?', [exam.id])).toEqual([{ user_id: stays.id }])
    expect(await h.sql('select id, status from exam_attempts where user_id = ?', [gone.id])).toEqual([{ id: graded.attemptId, status: 'submitted' }])

    // A redelivery (same id) has no second effect; the inbox holds it once.
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [gone.id] } })
    await createIdentityHandler({ orm: h.orm, logger: silentLogger })(event)
    expect(await h.sql('select user_id from exam_assignments where exam_id = ?', [exam.id])).toEqual([{ user_id: gone.id }])
    expect(await h.sql("select event_id from inbox where consumer = 'learning'")).toEqual([{ event_id: event.id }])
    await sub.stop()
  })
})
