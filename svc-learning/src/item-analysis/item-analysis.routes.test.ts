import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { strFromU8, unzipSync } from 'fflate'
import { Exam, ItemAnalysis, StartAttemptResponse, type Answer } from '@portal/contracts'
import { correctAnswersAsShown, createHarness, examInput, type Harness, type TestUser } from '../harness.test-support.ts'
import { FIXTURE_ANSWERS, FIXTURE_QUESTIONS, fixtureFacts } from './fixture.test-support.ts'
import { itemAnalysisRepository } from './item-analysis.repository.ts'
import { poolAnswer, referenceAnalysis, type AttemptFacts } from './reference.ts'
import { toExamStats, toItemStats } from './stats.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let manager: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  tech = await h.user()
  manager = await h.user({ manager: { branches: ['Portland'], departments: [] } })
})
afterAll(async () => {
  await h?.close()
})

const createExam = async (over: Record<string, unknown>) => Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })).body)

const fixtureExam = (name: string, exam_type: 'final' | 'practice' = 'final') =>
  createExam({
    name,
    exam_type,
    max_attempts: exam_type === 'final' ? 10 : null,
    total_questions: FIXTURE_QUESTIONS.length,
    subject_categories: [],
    questions: FIXTURE_QUESTIONS.map((q) => ({ question_type: q.type, question_text: q.text, options: q.options, correct_answer: q.correct, subject_category: null })),
  })

/** A random permutation of 0..n-1 (the order an attempt shows the options in). */
const shuffled = (n: number, rnd: () => number) => {
  const a = Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}
const seeded = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

/**
 * Stores a graded attempt the way the service leaves one (snapshot, option orders, answers as
 * shown, result), started under way and then finalised, so the database fills its kept rows.
 */
async function storeAttempt(exam: Exam, facts: AttemptFacts, opts: { at: string; status?: 'submitted' | 'expired'; rnd: () => number; orders?: boolean }) {
  const byId = new Map(exam.questions.map((q) => [q.id, q]))
  const questions = facts.items.map((it) => {
    const q = byId.get(it.questionId)!
    return { ...q, keep_option_order: false }
  })
  const orders = opts.orders === false ? null : questions.map((q) => shuffled(q.options.length, opts.rnd))
  const answers: Answer[] = facts.items.map((it, i) => {
    const shownOf = (p: number) => (orders ? orders[i]!.indexOf(p) : p)
    return questions[i]!.question_type === 'multi_select' ? it.chosen.map(shownOf).sort((a, b) => a - b) : it.chosen.length ? shownOf(it.chosen[0]!) : -1
  })
  const correct = facts.items.filter((i) => i.correct).length
  const result = {
    score: facts.score,
    correct_answers: correct,
    question_results: facts.items.map((it) => ({ question_id: it.questionId, is_correct: it.correct })),
  }
  const id = crypto.randomUUID()
  const started = new Date(Date.parse(opts.at) - (facts.durationSeconds ?? 600) * 1000)
  const [{ n }] = await h.sql<{ n: number }>('select coalesce(max(attempt_number), 0)::int + 1 as n from exam_attempts where exam_id = ?', [exam.id])
  await h.sql(
    `insert into exam_attempts (id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, option_orders, answers, status, started_at, deadline)
     values (?, ?, ?, ?, ?, 70, ?::jsonb, ?::jsonb, '[]'::jsonb, 'in_progress', ?, ?)`,
    [id, exam.id, tech.id, n, exam.name, JSON.stringify(questions), JSON.stringify(orders), started, new Date(Date.parse(opts.at) + 60_000)],
  )
  await h.sql('update exam_attempts set answers = ?::jsonb, status = ?, finalised_at = ?, score = ?, passed = false, result = ?::jsonb where id = ?', [
    JSON.stringify(answers),
    opts.status ?? 'submitted',
    new Date(opts.at),
    facts.score,
    JSON.stringify(result),
    id,
  ])
  return id
}

const analysis = async (examId: number, query = '', token = admin.token) => h.call('GET', `/admin/exams/${examId}/item-analysis${query}`, { token })

describe('GET /admin/exams/{id}/item-analysis', () => {
  it('answers the fixture with the figures worked by hand (the SQL agrees with the reference), options mapped back through each order', async () => {
    const exam = await fixtureExam('Fixture exam')
    const ids = exam.questions.map((q) => q.id)
    const facts = fixtureFacts(ids)
    const rnd = seeded(7)
    for (const f of facts) await storeAttempt(exam, f, { at: '2025-03-10T12:00:00Z', rnd })
    const res = await analysis(exam.id)
    expect(res.status).toBe(200)
    const body = ItemAnalysis.parse(res.body)
    const ref = referenceAnalysis(facts)
    expect(body.exam).toEqual(toExamStats(ref.exam, ref.items))
    expect(body.exam).toMatchObject({ attempts: 5, mean: 44, median: 40, standard_deviation: 16.73, cronbach_alpha: -0.1786, mean_duration_seconds: 300 })
    const questions = exam.questions.map((q, i) => ({
      id: q.id,
      text: q.question_text,
      type: q.question_type,
      options: q.options,
      correct: Array.isArray(FIXTURE_QUESTIONS[i]!.correct) ? (FIXTURE_QUESTIONS[i]!.correct as number[]) : [FIXTURE_QUESTIONS[i]!.correct as number],
      inPool: true,
      status: 'active' as const,
    }))
    expect(body.questions).toEqual(questions.map((q, i) => toItemStats(q, ref.items[i])))
    expect(body.questions.map((q) => q.flags.map((f) => f.code))).toEqual([
      ['too_easy', 'non_functioning_distractor', 'non_functioning_distractor'],
      ['too_hard'],
      ['negative_discrimination', 'non_functioning_distractor'],
      ['low_discrimination'],
      [],
    ])
    expect(body.questions[2]!.options.map((o) => o.chosen)).toEqual([2, 1, 1, 0])
    expect(Object.keys(FIXTURE_ANSWERS)).toHaveLength(5)
  })

  it('agrees with the reference on drawn questions, shuffled and stored orders, expired attempts and ties (random data set)', async () => {
    const pool = Array.from({ length: 8 }, (_, i) => ({
      question_type: i % 3 === 2 ? 'multi_select' : 'multiple_choice',
      question_text: `Random ${i}`,
      options: ['o1', 'o2', 'o3', 'o4'].slice(0, 2 + (i % 3)),
      correct_answer: i % 3 === 2 ? [0, 2] : i % 2,
      subject_category: null,
    }))
    const exam = await createExam({ name: 'Random exam', exam_type: 'final', max_attempts: 10, total_questions: 5, subject_categories: [], questions: pool })
    const rnd = seeded(42)
    const facts: AttemptFacts[] = []
    for (let a = 0; a < 60; a++) {
      const drawn = shuffled(8, rnd).slice(0, 5)
      const items = drawn.map((qi) => {
        const q = exam.questions[qi]!
        const ability = a / 60
        const chosen =
          q.question_type === 'multi_select'
            ? [0, 1, 2].filter(() => rnd() < 0.5)
            : rnd() < 0.1
              ? []
              : [rnd() < ability ? (q.correct_answer as number) : Math.floor(rnd() * q.options.length)]
        const right = Array.isArray(q.correct_answer) ? chosen.join() === q.correct_answer.join() : chosen[0] === q.correct_answer
        return { questionId: q.id, correct: right, chosen }
      })
      const f: AttemptFacts = { score: (items.filter((i) => i.correct).length / 5) * 100, durationSeconds: a % 4 === 0 ? null : 100 + a, items }
      facts.push(f)
      await storeAttempt(exam, f, { at: '2025-04-01T08:00:00Z', rnd, status: f.durationSeconds === null ? 'expired' : 'submitted', orders: a % 5 !== 0 })
    }
    const range = { examId: exam.id, kind: 'final' as const, from: '-infinity', to: 'infinity' }
    const em = h.orm.em.fork()
    const [sqlExam, sqlItems] = await Promise.all([itemAnalysisRepository.examStats(em, range), itemAnalysisRepository.itemStats(em, range, 4)])
    const ref = referenceAnalysis(facts)
    const close = (x: number | null, y: number | null) => (x === null || y === null ? expect(x).toBe(y) : expect(x).toBeCloseTo(y, 9))
    expect(sqlExam.attempts).toBe(60)
    expect(sqlExam.bins).toEqual(ref.exam.bins)
    for (const k of ['mean', 'median', 'standardDeviation', 'rawVariance', 'questionsPerAttempt', 'meanDurationSeconds'] as const) close(sqlExam[k], ref.exam[k])
    expect(sqlItems.map((i) => i.questionId)).toEqual(ref.items.map((i) => i.questionId))
    sqlItems.forEach((s, i) => {
      const r = ref.items[i]!
      expect([s.attempts, s.correct]).toEqual([r.attempts, r.correct])
      for (const k of ['discrimination', 'upperN', 'upperCorrect', 'lowerN', 'lowerCorrect'] as const) close(s[k], r[k])
      expect(s.options.map((o) => [o.index, o.chosen])).toEqual(r.options.map((o) => [o.index, o.chosen]))
      s.options.forEach((o, j) => {
        close(o.upper, r.options[j]!.upper)
        close(o.lower, r.options[j]!.lower)
      })
    })
  })

  it("keeps rows for attempts taken through the API: the answer as pool indexes (the twin poolAnswer), the grading's correctness", async () => {
    const exam = await createExam({ name: 'Live exam', total_questions: 4 })
    const attempt = StartAttemptResponse.parse((await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })).body)
    const right = correctAnswersAsShown(exam, attempt)
    const answers = attempt.questions.map((q, i) =>
      i === 0 ? (q.options.length > 1 ? (Array.isArray(right[0]) ? [0] : ((right[0] as number) + 1) % q.options.length) : -1) : right[i]!,
    )
    const submitted = await h.call('POST', `/exams/${exam.id}/submit`, {
      token: tech.token,
      body: { attemptId: attempt.attemptId, answers, questionIds: attempt.questions.map((q) => q.id) },
    })
    expect(submitted.status).toBe(200)
    const [stored] = await h.sql<{ option_orders: number[][]; answers: Answer[]; result: { question_results: { is_correct: boolean }[]; correct_answers: number } }>(
      'select option_orders, answers, result from exam_attempts where id = ?',
      [attempt.attemptId],
    )
    const kept = await h.sql<{ position: number; question_id: number; correct: boolean; bits: number; raw_score: number; exam_type: string }>(
      'select position, question_id, correct, chosen_bits::int as bits, raw_score, exam_type from exam_attempt_items where attempt_id = ? order by position',
      [attempt.attemptId],
    )
    expect(kept.map((k) => [k.position, k.question_id, k.correct, k.bits, k.raw_score, k.exam_type])).toEqual(
      attempt.questions.map((q, i) => {
        const pool = poolAnswer(stored!.answers[i]!, stored!.option_orders[i])
        return [i, q.id, stored!.result.question_results[i]!.is_correct, pool.reduce((b, o) => b + 2 ** o, 0), stored!.result.correct_answers, 'practice']
      }),
    )
    const [score] = await h.sql('select items, raw_score, score from exam_attempt_scores where attempt_id = ?', [attempt.attemptId])
    expect(score).toMatchObject({ items: 4, raw_score: 3 })
    // The analysis counts it; the question answered wrong names the option the learner picked, in the pool's order.
    const body = ItemAnalysis.parse((await analysis(exam.id)).body)
    expect(body.exam.attempts).toBe(1)
    const first = body.questions.find((q) => q.question_id === attempt.questions[0]!.id)!
    expect(first.correct).toBe(0)
    expect(first.options.filter((o) => o.chosen === 1).map((o) => o.text)).toEqual(
      poolAnswer(answers[0]!, stored!.option_orders[0]).map((i) => exam.questions.find((q) => q.id === first.question_id)!.options[i]),
    )
  })

  it('analyses final and practice attempts apart, within the chosen days (UTC, both included)', async () => {
    const exam = await fixtureExam('Range exam')
    const facts = fixtureFacts(exam.questions.map((q) => q.id))
    const rnd = seeded(3)
    await storeAttempt(exam, facts[0]!, { at: '2025-05-01T00:00:00Z', rnd })
    await storeAttempt(exam, facts[1]!, { at: '2025-05-03T23:59:59Z', rnd })
    await storeAttempt(exam, facts[4]!, { at: '2025-05-04T00:00:00Z', rnd })
    // Practice attempts: graded while the exam was a practice exam.
    await h.sql("update exams set exam_type = 'practice', max_attempts = null where id = ?", [exam.id])
    await storeAttempt(exam, facts[2]!, { at: '2025-05-02T10:00:00Z', rnd })
    await h.sql("update exams set exam_type = 'final', max_attempts = 10 where id = ?", [exam.id])
    const count = async (q: string) => ItemAnalysis.parse((await analysis(exam.id, q)).body).exam.attempts
    expect(await count('')).toBe(3)
    expect(await count('?kind=final&start_date=2025-05-01&end_date=2025-05-03')).toBe(2)
    expect(await count('?start_date=2025-05-04')).toBe(1)
    expect(await count('?end_date=2025-04-30')).toBe(0)
    expect(await count('?kind=practice')).toBe(1)
    expect(await count('?kind=practice&start_date=2025-05-03')).toBe(0)
    const body = ItemAnalysis.parse((await analysis(exam.id, '?start_date=2025-05-01&end_date=2025-05-01')).body)
    expect(body).toMatchObject({ kind: 'final', start_date: '2025-05-01', end_date: '2025-05-01' })
  })

  it('says nothing is there for an exam with no attempts: counts 0, null statistics, no flags', async () => {
    const exam = await fixtureExam('Untaken exam', 'practice')
    const res = await analysis(exam.id)
    expect(res.status).toBe(200)
    const body = ItemAnalysis.parse(res.body)
    expect(body.kind).toBe('practice')
    expect(body.exam).toMatchObject({ attempts: 0, mean: null, median: null, standard_deviation: null, cronbach_alpha: null, questions_per_attempt: null })
    expect(body.questions).toHaveLength(5)
    expect(body.questions.every((q) => q.attempts === 0 && q.facility === null && q.discrimination === null && q.flags.length === 0)).toBe(true)
    expect(JSON.stringify(res.body)).not.toMatch(/NaN/)
  })

  it('names a question deleted from the pool as its attempts saw it', async () => {
    const exam = await fixtureExam('Edited exam')
    const facts = fixtureFacts(exam.questions.map((q) => q.id))
    await storeAttempt(exam, facts[0]!, { at: '2025-06-01T00:00:00Z', rnd: seeded(1) })
    const kept = exam.questions.slice(1).map(({ id, ...q }) => ({ ...q, id }))
    const put = await h.call('PUT', `/exams/${exam.id}`, {
      token: admin.token,
      body: { ...examInput({ name: exam.name, exam_type: 'final', max_attempts: 10, total_questions: 4, subject_categories: [], questions: kept }) },
    })
    expect(put.status).toBe(200)
    const body = ItemAnalysis.parse((await analysis(exam.id)).body)
    expect(body.questions.map((q) => [q.question_text, q.in_pool, q.attempts])).toEqual([
      ['Nobody gets this', true, 1],
      ['The weak get this', true, 1],
      ['Barely tells apart', true, 1],
      ['Pick two', true, 1],
      ['Everyone gets this', false, 1],
    ])
    expect(body.questions[4]!.options.map((o) => [o.text, o.is_correct, o.chosen])).toEqual([
      ['a', true, 1],
      ['b', false, 0],
      ['c', false, 0],
    ])
  })

  it('counts every option of a 50-option question, and those of a deleted question wider than the pool', async () => {
    const wide = Array.from({ length: 50 }, (_, i) => `w${i}`)
    const exam = await createExam({
      name: 'Wide exam',
      exam_type: 'final',
      max_attempts: 10,
      total_questions: 2,
      subject_categories: [],
      questions: [
        { question_type: 'multi_select', question_text: 'Wide', options: wide, correct_answer: [0, 49], subject_category: null },
        { question_type: 'multiple_choice', question_text: 'Narrow', options: ['x', 'y'], correct_answer: 1, subject_category: null },
      ],
    })
    const [w, n] = exam.questions.map((q) => q.id) as [number, number]
    const facts: AttemptFacts[] = [
      {
        score: 100,
        durationSeconds: 60,
        items: [
          { questionId: w, correct: true, chosen: [0, 49] },
          { questionId: n, correct: true, chosen: [1] },
        ],
      },
      {
        score: 0,
        durationSeconds: 60,
        items: [
          { questionId: w, correct: false, chosen: [2, 31] },
          { questionId: n, correct: false, chosen: [0] },
        ],
      },
      {
        score: 50,
        durationSeconds: 60,
        items: [
          { questionId: w, correct: false, chosen: [45] },
          { questionId: n, correct: true, chosen: [1] },
        ],
      },
    ]
    for (const f of facts) await storeAttempt(exam, f, { at: '2025-07-01T00:00:00Z', rnd: seeded(5) })
    const ref = referenceAnalysis(facts)
    const chosenOf = (body: ItemAnalysis, id: number) =>
      body.questions.find((q) => q.question_id === id)!.options.flatMap((o) => (o.chosen ? [[o.index, o.chosen, o.upper_pct]] : []))
    const expected = ref.items[0]!.options.map((o) => [o.index, o.chosen, Number(((o.upper / ref.items[0]!.upperN) * 100).toFixed(2))])
    expect(expected.map((o) => o[0])).toEqual([0, 2, 31, 45, 49])
    expect(chosenOf(ItemAnalysis.parse((await analysis(exam.id)).body), w)).toEqual(expected)
    const narrowOnly = exam.questions.slice(1)
    expect(
      (
        await h.call('PUT', `/exams/${exam.id}`, {
          token: admin.token,
          body: examInput({ name: exam.name, exam_type: 'final', max_attempts: 10, total_questions: 1, subject_categories: [], questions: narrowOnly }),
        })
      ).status,
    ).toBe(200)
    const after = ItemAnalysis.parse((await analysis(exam.id)).body)
    expect(after.questions.map((q) => [q.question_text, q.in_pool])).toEqual([
      ['Narrow', true],
      ['Wide', false],
    ])
    expect(chosenOf(after, w)).toEqual(expected)
  })

  it('exports the figures as an .xlsx: the test, the questions with their flags, every option, the histogram', async () => {
    const exam = await fixtureExam('Export exam')
    const rnd = seeded(11)
    for (const f of fixtureFacts(exam.questions.map((q) => q.id))) await storeAttempt(exam, f, { at: '2025-08-01T12:00:00Z', rnd })
    const res = await h.app.request(`/admin/exams/${exam.id}/item-analysis/export?start_date=2025-08-01&end_date=2025-08-31`, {
      headers: { authorization: `Bearer ${admin.token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers.get('content-disposition')).toContain('item-analysis-export-exam-final-2025-08-01-to-2025-08-31.xlsx')
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const sheet = (n: number) => strFromU8(files[`xl/worksheets/sheet${n}.xml`]!)
    expect(strFromU8(files['xl/workbook.xml']!)).toMatch(/name="Exam".*name="Questions".*name="Options".*name="Histogram"/)
    expect(sheet(1)).toContain('<t>Attempts counted</t></is></c><c r="B6"><v>5</v>')
    expect(sheet(2)).toContain('Too easy: 100% answered correctly (above 90%)')
    expect(sheet(2)).toContain('Negative discrimination: -0.56')
    expect(sheet(3)).toContain('<t>Pick two</t>')
    expect(sheet(4)).toMatch(/<c r="C4"><v>1<\/v>/)
    expect((await h.app.request(`/admin/exams/${exam.id}/item-analysis/export`, { headers: { authorization: `Bearer ${tech.token}` } })).status).toBe(403)
    expect(
      (await h.app.request(`/admin/exams/${exam.id}/item-analysis/export?start_date=2025-09-02&end_date=2025-09-01`, { headers: { authorization: `Bearer ${admin.token}` } }))
        .status,
    ).toBe(400)
  })

  it('is for admins only: technicians and managers 403, no token 401', async () => {
    const exam = await fixtureExam('Roles exam')
    expect((await analysis(exam.id)).status).toBe(200)
    expect(await analysis(exam.id, '', tech.token)).toMatchObject({ status: 403, body: { code: 'admin_required' } })
    expect(await analysis(exam.id, '', manager.token)).toMatchObject({ status: 403, body: { code: 'admin_required' } })
    expect((await h.call('GET', `/admin/exams/${exam.id}/item-analysis`)).status).toBe(401)
  })

  it('refuses bad input with a 400 naming the field, and an unknown exam with 404', async () => {
    const exam = await fixtureExam('Bad input exam')
    expect(await analysis(exam.id, '?start_date=2025-05-10&end_date=2025-05-09')).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', message: 'end_date must not be before start_date', details: [{ path: 'end_date' }] },
    })
    expect(await analysis(exam.id, '?start_date=10/05/2025')).toMatchObject({ status: 400, body: { details: [{ path: 'start_date' }] } })
    expect(await analysis(exam.id, '?kind=mock')).toMatchObject({ status: 400, body: { details: [{ path: 'kind' }] } })
    expect(await analysis(exam.id, '?start_date=2025-05-09&end_date=2025-05-09')).toMatchObject({ status: 200 })
    expect(await analysis(999_999)).toMatchObject({ status: 404, body: { code: 'exam_not_found' } })
    expect((await h.call('GET', '/admin/exams/abc/item-analysis', { token: admin.token })).status).toBe(400)
  })
})
