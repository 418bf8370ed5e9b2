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

  it('drops the user’s course assignments and SCORM runtime data, keeps their progress history', async () => {
    const gone = await h.user()
    const stays = await h.user()
    const at = new Date()
    const [course] = await h.sql<{ id: number }>("insert into courses (title, is_assigned_to_all, created_at, updated_at) values ('C', false, ?, ?) returning id", [at, at])
    const [mod] = await h.sql<{ id: number }>(
      `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, created_at, updated_at)
       values (?, 'M', 1, 'p.zip', 'application/zip', 1, true, 'k', 'ready', ?, ?) returning id`,
      [course!.id, at, at],
    )
    for (const u of [gone, stays]) {
      await h.sql('insert into course_assignments (course_id, user_id, assigned_at) values (?, ?, ?)', [course!.id, u.id, at])
      await h.sql("insert into scorm_states (user_id, module_id, item_id, launch_at, seq, cmi, updated_at) values (?, ?, 'i', 1, 1, '{}', ?)", [u.id, mod!.id, at])
      await h.sql("insert into scorm_shared_data (user_id, module_id, store_id, store, updated_at) values (?, ?, 's', 'x', ?)", [u.id, mod!.id, at])
      await h.sql('insert into module_progress (user_id, module_id, course_id, progress, started_at) values (?, ?, ?, 40, ?)', [u.id, mod!.id, course!.id, at])
    }
    await createIdentityHandler({ orm: h.orm, logger: silentLogger })({
      id: crypto.randomUUID(),
      type: 'identity.user.deleted.v1',
      occurredAt: at.toISOString(),
      data: { userId: gone.id },
    })
    for (const table of ['course_assignments', 'scorm_states', 'scorm_shared_data'])
      expect(await h.sql(`select user_id from ${table} order by user_id`), table).toEqual([{ user_id: stays.id }])
    expect(await h.sql('select user_id from module_progress where user_id = ?', [gone.id])).toEqual([{ user_id: gone.id }])
  })
})
