import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Exam, LearnerExam, type EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createInProcessBus, createTokenIssuer, loadOrCreateSigningKey } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { loadLearningEnv, seedDemoData, start } from './server.ts'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe('start()', () => {
  it('serves the app with identity’s keys, seeds the demo exams once and publishes submissions', async () => {
    const db = await createTestDatabase('learning_server')
    cleanups.push(db.drop)
    // Its own data folder: the demo course's files and the launch key stay out of the repository's .data.
    const dataDir = await mkdtemp(join(tmpdir(), 'learning-server-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const env = PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: dataDir })
    const key = await loadOrCreateSigningKey(undefined)
    const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 600 })
    const bus = createInProcessBus()
    const seen: EventEnvelope[] = []
    await bus.subscribe('test', ['learning.>'], async (e) => void seen.push(e))
    let offsetMs = 0
    const clock = () => new Date(Date.now() + offsetMs)
    const server = await start({ env, logger: silentLogger, bus, port: 0, jwks: () => issuer.jwks(), databaseUrl: db.url, sweepIntervalMs: 50, clock })
    cleanups.push(async () => {
      await server.close()
      await bus.close()
    })

    expect(await seedDemoData(server)).toEqual(['Electrical Safety Basics', 'Lockout/Tagout Certification'])
    expect(await seedDemoData(server)).toEqual([])

    const base = `http://127.0.0.1:${server.port}`
    const admin = await issuer.sign({
      userId: crypto.randomUUID(),
      email: 'a@acme.test',
      name: 'A',
      isAdmin: true,
      isManager: false,
      managerScope: { branches: [], departments: [] },
    })
    const techId = crypto.randomUUID()
    const tech = await issuer.sign({ userId: techId, email: 't@acme.test', name: 'T', isAdmin: false, isManager: false, managerScope: { branches: [], departments: [] } })
    const get = async (path: string, token: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })

    const exams = ((await (await get('/admin/exams', admin)).json()) as unknown[]).map((e) => Exam.parse(e))
    const safety = exams.find((e) => e.name === 'Electrical Safety Basics')!
    expect(safety).toMatchObject({ exam_type: 'practice', total_questions: 8, time_limit: 15, pass_score: 70, max_attempts: null, is_assigned_to_all: true })
    expect(safety.questions).toHaveLength(12)
    // Issue 27: the demo exams shuffle their options, and their correct options are not all listed first.
    expect([safety.shuffle_options, exams.find((e) => e.name === 'Lockout/Tagout Certification')!.shuffle_options]).toEqual([true, true])
    expect(safety.questions.filter((q) => q.correct_answer === 0).length).toBeLessThan(safety.questions.filter((q) => q.question_type === 'multiple_choice').length / 2)
    expect(new Set(safety.questions.map((q) => q.question_type))).toEqual(new Set(['multiple_choice', 'multi_select']))
    expect(safety.subject_categories.length).toBeGreaterThanOrEqual(2)
    const lockout = exams.find((e) => e.name === 'Lockout/Tagout Certification')!
    expect(lockout).toMatchObject({ exam_type: 'final', max_attempts: 2, total_questions: 10, time_limit: 20, is_assigned_to_all: true })
    expect(lockout.questions).toHaveLength(10)

    const list = (await (await get('/exams', tech)).json()) as { name: string }[]
    expect(list.map((e) => e.name).sort()).toEqual(['Electrical Safety Basics', 'Lockout/Tagout Certification'])
    LearnerExam.parse(await (await get(`/exams/${safety.id}`, tech)).json())
    expect((await get('/exams', 'nonsense')).status).toBe(401)
    expect((await fetch(`${base}/readyz`)).status).toBe(200)

    const started = await fetch(`${base}/exams/${safety.id}/attempts`, { method: 'POST', headers: { authorization: `Bearer ${tech}` } })
    const attempt = (await started.json()) as { attemptId: string; questions: { id: number }[] }
    expect(attempt.questions).toHaveLength(8)
    const submitted = await fetch(`${base}/exams/${safety.id}/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tech}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attemptId: attempt.attemptId, answers: attempt.questions.map(() => -1), questionIds: attempt.questions.map((q) => q.id) }),
    })
    expect(submitted.status).toBe(200)
    await server.relay.flush()
    expect(seen.map((e) => [e.type, (e.data as { userId: string }).userId])).toEqual([['learning.exam.submitted.v1', techId]])

    // An attempt nobody submits is finalised by the background sweeper once its time is up.
    const final = await fetch(`${base}/exams/${lockout.id}/attempts`, { method: 'POST', headers: { authorization: `Bearer ${tech}` } })
    const finalAttempt = (await final.json()) as { attemptId: string }
    offsetMs = 21 * 60_000
    for (let i = 0; i < 100 && seen.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50))
      await server.relay.flush()
    }
    expect(seen[1]!.data).toMatchObject({ attemptId: finalAttempt.attemptId, examName: 'Lockout/Tagout Certification', score: 0, passed: false, attemptNumber: 1 })
  })
})

describe('loadLearningEnv', () => {
  it('needs the engines, identity’s JWKS, shared storage and the launch secret, and picks the port', () => {
    expect(() => loadLearningEnv({})).toThrow(/DATABASE_URL[\s\S]*NATS_URL[\s\S]*IDENTITY_JWKS_URL[\s\S]*STORAGE_DIR[\s\S]*LAUNCH_TOKEN_SECRET/)
    expect(() => loadLearningEnv({ LAUNCH_TOKEN_SECRET: 'short' })).toThrow(/LAUNCH_TOKEN_SECRET: must be base64url of at least 32 random bytes/)
    const base = {
      DATABASE_URL: 'postgresql://db/x',
      NATS_URL: 'nats://n:4222',
      IDENTITY_JWKS_URL: 'http://identity:4001/auth/jwks.json',
      STORAGE_DIR: '/srv/learning',
      LAUNCH_TOKEN_SECRET: Buffer.alloc(32, 7).toString('base64url'),
    }
    expect(loadLearningEnv(base)).toMatchObject({ storageDir: '/srv/learning', launchSecret: base.LAUNCH_TOKEN_SECRET })
    expect(loadLearningEnv(base).port).toBe(4002)
    // Reached through the gateway: loopback unless a container says otherwise.
    expect(loadLearningEnv(base).hostname).toBe('127.0.0.1')
    expect(loadLearningEnv({ ...base, HOST: '0.0.0.0' }).hostname).toBe('0.0.0.0')
    expect(loadLearningEnv({ ...base, PORT: '9000' }).port).toBe(9000)
    expect(loadLearningEnv({ ...base, PORT: '9000', LEARNING_PORT: '4100' }).port).toBe(4100)
    // where the gateway serves course content (the launch answers point there)
    expect(loadLearningEnv(base).contentOrigin).toBe('http://localhost:8081')
    expect(loadLearningEnv({ ...base, CONTENT_ORIGIN: 'https://content.example.com/' }).contentOrigin).toBe('https://content.example.com')
    expect(() => loadLearningEnv({ ...base, CONTENT_ORIGIN: 'content' })).toThrow(/CONTENT_ORIGIN/)
  })
})
