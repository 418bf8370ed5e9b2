import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScormLaunch } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { insertCourse, insertModule, installFixture } from '../progress/course-runtime.test-support.ts'

/*
 * A commit that fails must not take the commit path down for anyone else: the commit statement is
 * a named prepared statement on the pool, and the single-node database (PGlite behind its socket)
 * has one session behind every connection of its pool of one.
 */
const FIXTURE = 'golf-scorm12-RuntimeBasicCalls.zip'
const core = (location: string, extra: Record<string, unknown> = {}) => ({
  cmi: { core: { lesson_status: 'incomplete', lesson_location: location, exit: 'suspend', session_time: '00:00:10', ...extra }, suspend_data: 's' },
})

describe.each([
  ['PostgreSQL (cluster)', false],
  ['embedded PGlite (single-node)', true],
])('SCORM commits on %s', (_mode, embedded) => {
  let h: Harness
  let learner: TestUser
  let other: TestUser
  let courseId: number
  let moduleId: number

  beforeAll(async () => {
    h = await createHarness({ embedded })
    learner = await h.user()
    other = await h.user()
    courseId = await insertCourse(h, { toAll: true })
    moduleId = await insertModule(h, courseId, { isScorm: true })
    await installFixture(h, moduleId, FIXTURE)
  }, 60_000)
  afterAll(async () => {
    await h?.close()
  })

  const launch = async (who: TestUser, id = moduleId) => {
    const res = await h.call('GET', `/scorm/${id}/launch`, { token: who.token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return ScormLaunch.parse(res.body)
  }
  const commit = async (l: ScormLaunch, seq: number, runtimeData: unknown, itemId = l.startItem) => {
    const res = await h.app.request(l.commitUrl.replace(/^\/api/, ''), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ itemId, seq, runtimeData }),
    })
    return { status: res.status, body: (await res.json()) as { result: boolean; code?: string; applied?: boolean } }
  }
  const stored = async (who: TestUser, id = moduleId) =>
    (await h.sql<{ location: string }>('select location from scorm_states where user_id = ? and module_id = ?', [who.id, id]))[0]?.location

  it('answers a NUL in a key, a lone surrogate in a value and a commit for a removed module, and everyone’s later commits are stored', async () => {
    const mine = await launch(learner)
    const theirs = await launch(other)
    expect((await commit(mine, 1, core('mine-1'))).body.applied).toBe(true)
    let seq = 1
    const othersCommitStored = async () => {
      const res = await commit(theirs, ++seq, core(`theirs-${seq}`))
      expect([res.status, res.body.applied], JSON.stringify(res.body)).toEqual([200, true])
      expect(await stored(other)).toBe(`theirs-${seq}`)
    }

    const nulKey = await commit(mine, 2, { cmi: { core: { lesson_status: 'incomplete' }, 'bad\u0000key': 'x' } })
    expect([nulKey.status, nulKey.body.result, nulKey.body.code]).toEqual([400, false, 'invalid_text'])
    await othersCommitStored()

    const loneSurrogate = await commit(mine, 3, core('mine-3', { lesson_location: 'broken \ud800 text' }))
    expect([loneSurrogate.status, loneSurrogate.body.result, loneSurrogate.body.code]).toEqual([400, false, 'invalid_text'])
    await othersCommitStored()

    // A module an admin removes while a learner has it open: the commit reaches the database
    // (the package's SCOs are cached) and fails on the module's foreign key.
    const removed = await insertModule(h, courseId, { isScorm: true, position: 2 })
    await installFixture(h, removed, FIXTURE)
    const open = await launch(learner, removed)
    expect((await commit(open, 1, core('removed-1'))).body.applied).toBe(true)
    await h.sql('delete from course_modules where id = ?', [removed])
    const gone = await commit(open, 2, core('removed-2'))
    expect([gone.status, gone.body.result, gone.body.code]).toEqual([404, false, 'module_not_found'])
    await othersCommitStored()

    expect((await commit(mine, 4, core('mine-4'))).body.applied).toBe(true)
    expect(await stored(learner)).toBe('mine-4')
  })

  it('holds suspend_data to 64,000 characters (in 1.2 too): a longer one is answered 400 and nothing of the commit is stored', async () => {
    const l = await launch(learner)
    expect((await commit(l, 1, core('kept'))).body.applied).toBe(true)
    const long = await commit(l, 2, { cmi: { core: { lesson_status: 'incomplete', lesson_location: 'too-long' }, suspend_data: 'x'.repeat(64_001) } })
    expect([long.status, long.body.result, long.body.code]).toEqual([400, false, 'validation_failed'])
    expect(await stored(learner)).toBe('kept')
    const full = await commit(l, 3, { cmi: { core: { lesson_status: 'incomplete', lesson_location: 'full' }, suspend_data: 'x'.repeat(64_000) } })
    expect([full.status, full.body.applied]).toEqual([200, true])
    expect(await stored(learner)).toBe('full')
  })

  it('keeps committing after the pool replaces its connection (an idle one is closed after 10 s)', async () => {
    const l = await launch(learner)
    expect((await commit(l, 1, core('before'))).body.applied).toBe(true)
    const pool = (await (h.orm.em.getConnection() as unknown as { getNativeClient(): Promise<unknown> }).getNativeClient()) as {
      connect(): Promise<{ release(err?: Error): void }>
    }
    const connection = await pool.connect()
    connection.release(new Error('closed by the test'))
    const after = await commit(l, 2, core('after'))
    expect([after.status, after.body.applied], JSON.stringify(after.body)).toEqual([200, true])
    expect(await stored(learner)).toBe('after')
  })
})
