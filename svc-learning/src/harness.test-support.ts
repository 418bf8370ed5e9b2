// Shared set-up of learning's route tests: a fresh PostgreSQL database, tokens from a test issuer,
// users registered through identity's event, a movable clock and helpers to call the app and read
// the outbox.
import type { AttemptQuestion, Branch, Department, Exam, ExamInput, ManagerScope, StartAttemptResponse } from '@portal/contracts'
import { PlatformEnv, createInProcessBus, createLocalStorage, createTokenIssuer, loadOrCreateSigningKey, type Actor } from '@portal/server-kit'
import { appStatusCaller, contractChecker, createTestDatabase, outboxEvents, silentLogger, sqlOf } from '@portal/server-kit/testing'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { learningService } from './server.ts'

/** Where the gateway would serve course content in these tests. */
export const CONTENT_ORIGIN = 'http://content.test'

export async function createHarness(
  opts: {
    uploadLimits?: { maxFileBytes?: number; maxRequestBytes?: number; maxFiles?: number }
    /** The single-node database: an embedded PGlite behind its socket (pool of one), instead of the machine's PostgreSQL. */
    embedded?: boolean
  } = {},
) {
  const dataDir = opts.embedded ? await mkdtemp(join(tmpdir(), 'learning-pglite-')) : undefined
  const env = PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: dataDir ?? '/tmp/unused' })
  const testDb = dataDir ? { url: undefined, drop: () => rm(dataDir, { recursive: true, force: true }) } : await createTestDatabase('learning')
  const key = await loadOrCreateSigningKey(undefined)
  const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
  const bus = createInProcessBus()
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  const storageDir = await mkdtemp(join(tmpdir(), 'learning-storage-'))
  const storage = createLocalStorage(storageDir)
  // The service as server.ts wires it (identity's user events fill the users projection), called in
  // process: nothing served, no sweeper or ingest running (tests drive them).
  const service = await learningService.assemble({
    env,
    logger: silentLogger,
    bus,
    jwks: issuer.jwks(),
    databaseUrl: testDb.url,
    clock,
    storage,
    launchSecret: Buffer.from(new Uint8Array(32).map((_, i) => i + 1)).toString('base64url'),
    uploadLimits: opts.uploadLimits,
    contentOrigin: CONTENT_ORIGIN,
  })
  const { app, attempts, ctx, launchTokens, relay, dueDateScan } = service

  // Status and body only: tests compare the whole answer. Every answer is checked against the
  // service's OpenAPI document (a contract test).
  const call = appStatusCaller(app, { contract: contractChecker(await (await app.request('/openapi.json')).json()) })
  const sql = sqlOf(service.orm)
  const events = (type?: string) => outboxEvents(sql, type)

  /**
   * A signed-in caller with a fresh id, registered the way identity announces users (so learning's
   * projection knows them); `manager` makes them a manager with that scope.
   */
  const user = async (opts: { admin?: boolean; name?: string; manager?: ManagerScope; branch?: Branch | null; department?: Department | null } = {}) => {
    const actor: Actor = {
      userId: crypto.randomUUID(),
      email: `${Math.random().toString(36).slice(2, 8)}@acme.test`,
      name: opts.name ?? 'Test User',
      isAdmin: Boolean(opts.admin),
      isManager: Boolean(opts.manager),
      managerScope: opts.manager ?? { branches: [], departments: [] },
    }
    await bus.publish({
      id: crypto.randomUUID(),
      type: 'identity.user.registered.v1',
      occurredAt: new Date().toISOString(),
      data: { ...actor, branch: opts.branch ?? null, department: opts.department ?? null, userGroup: null },
    })
    return { id: actor.userId, actor, token: await issuer.sign(actor) }
  }

  return {
    app,
    attempts,
    ctx,
    storage,
    storageDir,
    launchTokens,
    /** The daily due-date scan (issue 24), run by the tests (no job runs here), on the company's today of the moved clock unless given a day. */
    dueDateScan,
    orm: service.orm,
    bus,
    relay,
    key,
    issuer,
    env,
    call,
    sql,
    events,
    user,
    now: clock,
    /** Moves the service's clock forward. */
    advance: (ms: number) => void (offsetMs += ms),
    async close() {
      await service.close()
      await bus.close()
      await testDb.drop()
      await rm(storageDir, { recursive: true, force: true })
    },
  }
}
export type Harness = Awaited<ReturnType<typeof createHarness>>
export type TestUser = Awaited<ReturnType<Harness['user']>>

/** A valid exam form payload; `over` replaces fields. */
export function examInput(over: Partial<Record<keyof ExamInput, unknown>> = {}): Record<string, unknown> {
  return {
    name: 'Ladder Safety',
    time_limit: 10,
    pass_score: 70,
    total_questions: 3,
    subject_categories: ['Setup', 'Use'],
    exam_type: 'practice',
    max_attempts: null,
    is_assigned_to_all: true,
    questions: [
      { question_type: 'multiple_choice', question_text: 'Angle ratio?', options: ['4:1', '2:1', '1:1'], correct_answer: 0, subject_category: 'Setup' },
      { question_type: 'multi_select', question_text: 'Inspect?', options: ['Rungs', 'Feet', 'Colour'], correct_answer: [0, 1], subject_category: 'Setup' },
      { question_type: 'multiple_choice', question_text: 'Points of contact?', options: ['1', '2', '3'], correct_answer: 2, subject_category: 'Use', category_weight: 2 },
      { question_type: 'multiple_choice', question_text: 'Top rung?', options: ['Stand on it', 'Never stand on it'], correct_answer: 1, subject_category: 'Use' },
    ],
    ...over,
  }
}

/**
 * The correct answer of a pool question as indexes into the options an attempt shows (the options
 * are shuffled per attempt: found by their text, which is unique within each test question).
 */
export function correctAsShown(q: Pick<Exam['questions'][number], 'options' | 'correct_answer'>, shown: Pick<AttemptQuestion, 'options'>): number | number[] {
  const at = (i: number) => shown.options.indexOf(q.options[i]!)
  return Array.isArray(q.correct_answer) ? q.correct_answer.map(at).sort((a, b) => a - b) : at(q.correct_answer)
}

/** The correct answer of each question of the attempt, in the order its options were shown. */
export const correctAnswersAsShown = (exam: Pick<Exam, 'questions'>, attempt: Pick<StartAttemptResponse, 'questions'>) =>
  attempt.questions.map((q) =>
    correctAsShown(
      exam.questions.find((p) => p.id === q.id)!,
      q,
    ),
  )
