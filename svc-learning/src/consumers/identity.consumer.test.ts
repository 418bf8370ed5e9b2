import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, StartAttemptResponse, type EventEnvelope } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { createHarness, examInput, type Harness } from '../harness.test-support.ts'
import { requireAssignable } from '../users/index.ts'
import type { UserFacts } from '@portal/server-kit'
import { USERS_CONSUMER, createIdentityHandler } from './identity.consumer.ts'

let h: Harness
let handle: (event: EventEnvelope) => Promise<void>
beforeAll(async () => {
  h = await createHarness()
  handle = createIdentityHandler({ orm: h.orm, logger: silentLogger })
})
afterAll(async () => {
  await h?.close()
})

const at = (iso: string) => new Date(iso)
const event = (type: string, data: unknown, occurredAt: Date): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: occurredAt.toISOString(), data })
const facts = (userId: string, over: Partial<UserFacts> = {}): UserFacts => ({
  userId,
  name: 'Pat Portland',
  email: 'pat@acme.test',
  isAdmin: false,
  isManager: false,
  managerScope: { branches: [], departments: [] },
  branch: 'Portland',
  department: 'Service',
  userGroup: null,
  ...over,
})
const row = async (id: string) => {
  const [found] = await h.sql(
    `select name, email, is_admin, is_manager, branch, department, user_group, occurred_at, deleted_at is not null as deleted
     from users where id = ?`,
    [id],
  )
  return found && { ...found, occurred_at: new Date(found.occurred_at) }
}

describe('identity.user.registered.v1 and identity.user.updated.v1', () => {
  it('store the user’s facts; an update replaces them; a redelivered event has no second effect', async () => {
    const id = crypto.randomUUID()
    const registered = event('identity.user.registered.v1', facts(id), at('2025-01-01T10:00:00Z'))
    await h.bus.publish(registered)
    expect(await row(id)).toMatchObject({ name: 'Pat Portland', email: 'pat@acme.test', is_admin: false, branch: 'Portland', department: 'Service', deleted: false })

    await h.bus.publish(event('identity.user.updated.v1', facts(id, { branch: 'Seattle', isManager: true, userGroup: 'Crew' }), at('2025-01-02T10:00:00Z')))
    await handle(registered)
    expect(await row(id)).toMatchObject({ branch: 'Seattle', is_manager: true, user_group: 'Crew', occurred_at: at('2025-01-02T10:00:00Z') })
    expect(await h.sql('select count(*)::int as n from inbox where consumer = ? and event_id = ?', [USERS_CONSUMER, registered.id])).toEqual([{ n: 1 }])
  })

  it('ignore an event older than the facts stored, whatever order they arrive in', async () => {
    const id = crypto.randomUUID()
    // The update overtook the registration (one durable consumer per subject).
    await handle(event('identity.user.updated.v1', facts(id, { name: 'Pat Renamed', isAdmin: true }), at('2025-02-02T10:00:00Z')))
    await handle(event('identity.user.registered.v1', facts(id), at('2025-02-01T10:00:00Z')))
    await handle(event('identity.user.updated.v1', facts(id, { name: 'Pat Older' }), at('2025-02-01T12:00:00Z')))
    expect(await row(id)).toMatchObject({ name: 'Pat Renamed', is_admin: true, occurred_at: at('2025-02-02T10:00:00Z') })
    await handle(event('identity.user.updated.v1', facts(id, { name: 'Pat Newest', isAdmin: false }), at('2025-02-03T10:00:00Z')))
    expect(await row(id)).toMatchObject({ name: 'Pat Newest', is_admin: false })
  })

  it('drop a malformed event without storing anything', async () => {
    const id = crypto.randomUUID()
    await handle(event('identity.user.registered.v1', { userId: id, name: 'No e-mail' }, at('2025-03-01T10:00:00Z')))
    expect(await row(id)).toBeUndefined()
  })
})

describe('identity.user.deleted.v1', () => {
  it('is final: the row keeps no facts, and a registration or update delivered late does not bring the user back', async () => {
    const id = crypto.randomUUID()
    await handle(event('identity.user.registered.v1', facts(id), at('2025-04-01T10:00:00Z')))
    await handle(event('identity.user.deleted.v1', { userId: id }, at('2025-04-02T10:00:00Z')))
    await handle(event('identity.user.updated.v1', facts(id, { name: 'Late' }), at('2025-04-01T12:00:00Z')))
    // Even one stamped after the deletion (another identity instance's clock running ahead).
    await handle(event('identity.user.updated.v1', facts(id, { name: 'Skewed' }), at('2025-04-02T10:00:01Z')))
    expect(await row(id)).toMatchObject({ name: null, email: null, branch: null, deleted: true })

    // A deletion that overtook everything else (a projection replaying the stream after the fact).
    const other = crypto.randomUUID()
    await handle(event('identity.user.deleted.v1', { userId: other }, at('2025-04-05T10:00:00Z')))
    await handle(event('identity.user.registered.v1', facts(other), at('2025-04-04T10:00:00Z')))
    expect(await row(other)).toMatchObject({ name: null, deleted: true })
  })

  it('drops the user’s assignments and unfinished attempts, keeps graded ones, once per event', async () => {
    const admin = await h.user({ admin: true })
    const gone = await h.user()
    const stays = await h.user()
    const exam = Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput({ is_assigned_to_all: false }) })).body)
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [gone.id, stays.id] } })
    const open = await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'Open' }) })
    const graded = StartAttemptResponse.parse((await h.call('POST', `/exams/${exam.id}/attempts`, { token: gone.token })).body)
    await h.call('POST', `/exams/${exam.id}/submit`, {
      token: gone.token,
      body: { attemptId: graded.attemptId, answers: [-1, -1, -1], questionIds: graded.questions.map((q) => q.id) },
    })
    await h.call('POST', `/exams/${open.body.id}/attempts`, { token: gone.token })

    const deleted = event('identity.user.deleted.v1', { userId: gone.id }, new Date())
    await h.bus.publish(deleted)
    expect(await h.sql('select user_id from exam_assignments where exam_id = ?', [exam.id])).toEqual([{ user_id: stays.id }])
    expect(await h.sql('select id, status from exam_attempts where user_id = ?', [gone.id])).toEqual([{ id: graded.attemptId, status: 'submitted' }])
    expect(await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [gone.id] } })).toMatchObject({
      status: 400,
      body: { code: 'invalid_assignees' },
    })

    // A redelivery (same id) has no second effect: a row written since stays.
    await h.sql('insert into exam_assignments (exam_id, user_id, assigned_at) values (?, ?, now())', [exam.id, gone.id])
    await handle(deleted)
    const assigned = await h.sql<{ user_id: string }>('select user_id from exam_assignments where exam_id = ?', [exam.id])
    expect(assigned.map((r) => r.user_id).sort()).toEqual([gone.id, stays.id].sort())
    expect(await h.sql('select count(*)::int as n from inbox where consumer = ? and event_id = ?', [USERS_CONSUMER, deleted.id])).toEqual([{ n: 1 }])
  })

  it('waits for an assignment to the user under way, then removes it', async () => {
    const [course] = await h.sql<{ id: number }>("insert into courses (title, is_assigned_to_all, created_at, updated_at) values ('Race', false, now(), now()) returning id")
    const gone = await h.user()
    let deleting: Promise<void> | undefined
    await h.orm.em.fork().transactional(async (tx) => {
      await requireAssignable(tx, [gone.id])
      await tx.execute('insert into course_assignments (course_id, user_id, assigned_at) values (?, ?, now())', [course!.id, gone.id])
      deleting = handle(event('identity.user.deleted.v1', { userId: gone.id }, new Date()))
      const settled = await Promise.race([deleting.then(() => 'deleted'), new Promise((r) => setTimeout(() => r('waiting'), 300))])
      expect(settled).toBe('waiting')
    })
    await deleting
    expect(await h.sql('select * from course_assignments where course_id = ?', [course!.id])).toEqual([])
  })

  it('drops the user’s course assignments and SCORM runtime data, keeps their progress history', async () => {
    const gone = await h.user()
    const stays = await h.user()
    const now = new Date()
    const [course] = await h.sql<{ id: number }>("insert into courses (title, is_assigned_to_all, created_at, updated_at) values ('C', false, ?, ?) returning id", [now, now])
    const [mod] = await h.sql<{ id: number }>(
      `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, created_at, updated_at)
       values (?, 'M', 1, 'p.zip', 'application/zip', 1, true, 'k', 'ready', ?, ?) returning id`,
      [course!.id, now, now],
    )
    for (const u of [gone, stays]) {
      await h.sql('insert into course_assignments (course_id, user_id, assigned_at) values (?, ?, ?)', [course!.id, u.id, now])
      await h.sql("insert into scorm_states (user_id, module_id, item_id, launch_at, seq, cmi, updated_at) values (?, ?, 'i', 1, 1, '{}', ?)", [u.id, mod!.id, now])
      await h.sql("insert into scorm_shared_data (user_id, module_id, store_id, store, updated_at) values (?, ?, 's', 'x', ?)", [u.id, mod!.id, now])
      await h.sql('insert into module_progress (user_id, module_id, course_id, progress, started_at) values (?, ?, ?, 40, ?)', [u.id, mod!.id, course!.id, now])
    }
    await handle(event('identity.user.deleted.v1', { userId: gone.id }, now))
    for (const table of ['course_assignments', 'scorm_states', 'scorm_shared_data'])
      expect(await h.sql(`select user_id from ${table} order by user_id`), table).toEqual([{ user_id: stays.id }])
    expect(await h.sql('select user_id from module_progress where user_id = ?', [gone.id])).toEqual([{ user_id: gone.id }])
  })
})
