import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AttemptQuestion, Exam, ExamSubmissionResult, StartAttemptResponse } from '@portal/contracts'
import { correctAnswersAsShown, correctAsShown, createHarness, examInput, type Harness, type TestUser } from '../../harness.test-support.ts'
import { SUBMIT_GRACE_MS } from './attempt.service.ts'

let h: Harness
let admin: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const create = async (over: Record<string, unknown> = {}) => {
  const res = await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })
  expect(res.status).toBe(201)
  return Exam.parse(res.body)
}
const startAttempt = async (user: TestUser, examId: number, status = 201) => {
  const res = await h.call('POST', `/exams/${examId}/attempts`, { token: user.token })
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return StartAttemptResponse.parse(res.body)
}
/** The correct answer of each question of the attempt (from the admin's view of the exam), in the order the attempt shows the options. */
const correctAnswers = correctAnswersAsShown
/** A wrong answer to question `i` of the attempt, in the order it shows the options. */
const wrongAnswer = (exam: Exam, attempt: StartAttemptResponse, i: number) => {
  const shown = attempt.questions[i]!
  const right = correctAsShown(
    exam.questions.find((p) => p.id === shown.id)!,
    shown,
  )
  return typeof right === 'number' ? (right + 1) % shown.options.length : -1
}
const submit = (user: TestUser, examId: number, attempt: StartAttemptResponse, answers: unknown[]) =>
  h.call('POST', `/exams/${examId}/submit`, { token: user.token, body: { attemptId: attempt.attemptId, answers, questionIds: attempt.questions.map((q) => q.id) } })
const attemptRow = async (id: string) => (await h.sql('select * from exam_attempts where id = ?', [id]))[0]!
const submittedEvents = async (attemptId: string) => (await h.events('learning.exam.submitted.v1')).filter((e) => e.data.attemptId === attemptId)

describe('POST /exams/{id}/attempts', () => {
  it('draws total_questions distinct questions of the pool, without answers, with a deadline', async () => {
    const exam = await create({ time_limit: 15 })
    const tech = await h.user()
    const before = Date.now()
    const attempt = await startAttempt(tech, exam.id)
    expect(attempt.attemptNumber).toBe(1)
    expect(attempt.questions).toHaveLength(3)
    expect(new Set(attempt.questions.map((q) => q.id)).size).toBe(3)
    expect(attempt.questions.every((q) => exam.questions.some((p) => p.id === q.id && p.question_text === q.question_text))).toBe(true)
    expect(attempt.answers).toBeUndefined()
    const started = Date.parse(attempt.startedAt)
    expect(started).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(attempt.deadline) - started).toBe(15 * 60_000)
    const raw = (await h.call('POST', `/exams/${exam.id}/attempts`, { token: (await h.user()).token })).body
    expect(JSON.stringify(raw)).not.toMatch(/correct_answer|category_weight/)
  })
  it('resumes the unfinished attempt with the same questions and the saved answers', async () => {
    const exam = await create()
    const tech = await h.user()
    const first = await startAttempt(tech, exam.id)
    const q = first.questions[0]!
    const answer = q.question_type === 'multi_select' ? [0] : 0
    expect((await h.call('PUT', `/exams/attempts/${first.attemptId}/answers`, { token: tech.token, body: { questionIds: [q.id], answers: [answer] } })).status).toBe(200)
    const again = await startAttempt(tech, exam.id, 200)
    expect(again).toMatchObject({ attemptId: first.attemptId, questions: first.questions, deadline: first.deadline, attemptNumber: 1 })
    expect(again.answers).toEqual([answer, -1, -1])
    expect(await h.sql('select id from exam_attempts where exam_id = ?', [exam.id])).toHaveLength(1)
  })
  it('tells the intro about the attempt under way: time left and answers saved, none once it is over', async () => {
    const exam = await create({ time_limit: 10 })
    const tech = await h.user()
    const intro = async (user: TestUser) => (await h.call('GET', `/exams/${exam.id}`, { token: user.token })).body.open_attempt
    expect(await intro(tech)).toBeNull()
    const attempt = await startAttempt(tech, exam.id)
    const q = attempt.questions[0]!
    await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, {
      token: tech.token,
      body: { questionIds: [q.id], answers: [q.question_type === 'multi_select' ? [0] : 0] },
    })
    h.advance(4 * 60_000)
    const open = { attempt_number: 1, started_at: attempt.startedAt, deadline: attempt.deadline, seconds_left: 6 * 60, answered: 1, questions: 3 }
    expect(await intro(tech)).toEqual(open)
    // The dashboard's list says the same, so a final exam whose attempts are all started offers Resume.
    const listed = (await h.call('GET', '/exams', { token: tech.token })).body.find((e: { id: number }) => e.id === exam.id)
    expect(listed.open_attempt).toEqual(open)
    // Another learner, and the admin, have none of their own.
    expect(await intro(await h.user())).toBeNull()
    expect(await intro(admin)).toBeNull()
    h.advance(6 * 60_000 + 1)
    expect(await intro(tech)).toBeNull()
    expect((await h.call('GET', '/exams', { token: tech.token })).body.find((e: { id: number }) => e.id === exam.id).open_attempt).toBeNull()
  })
  it('lets only callers the exam is assigned to start it', async () => {
    const exam = await create({ is_assigned_to_all: false })
    const assigned = await h.user()
    const stranger = await h.user()
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [assigned.id] } })
    expect(await h.call('POST', `/exams/${exam.id}/attempts`, { token: stranger.token })).toMatchObject({ status: 403, body: { code: 'exam_not_assigned' } })
    expect(await h.call('POST', '/exams/999999/attempts', { token: stranger.token })).toMatchObject({ status: 404, body: { message: 'Exam not found' } })
    expect((await h.call('POST', `/exams/${exam.id}/attempts`)).status).toBe(401)
    await startAttempt(assigned, exam.id)
    expect(await h.sql('select user_id from exam_attempts where exam_id = ?', [exam.id])).toEqual([{ user_id: assigned.id }])
  })
  it('explains an empty or too small pool with 422', async () => {
    const exam = await create({ total_questions: 3 })
    const tech = await h.user()
    await h.sql('delete from exam_questions where id in (?, ?)', [exam.questions[0]!.id, exam.questions[1]!.id])
    expect(await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })).toMatchObject({
      status: 422,
      body: { message: 'Not enough questions in pool. Required: 3, Available: 2', code: 'pool_too_small' },
    })
    await h.sql('delete from exam_questions where exam_id = ?', [exam.id])
    expect(await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })).toMatchObject({
      status: 422,
      body: { message: 'This exam has no questions.', code: 'no_questions' },
    })
    expect(await h.sql('select id from exam_attempts where exam_id = ?', [exam.id])).toEqual([])
  })
  it('enforces max_attempts of final exams; a started attempt counts', async () => {
    const exam = await create({ exam_type: 'final', max_attempts: 2 })
    const tech = await h.user()
    const first = await startAttempt(tech, exam.id)
    expect((await submit(tech, exam.id, first, correctAnswers(exam, first))).status).toBe(200)
    // The second attempt is only started, never submitted: its time runs out.
    const second = await startAttempt(tech, exam.id)
    expect(second.attemptNumber).toBe(2)
    h.advance(11 * 60_000)
    const refused = await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })
    expect(refused).toMatchObject({ status: 409, body: { message: 'You have used all 2 attempt(s) for this exam.', code: 'attempts_exhausted' } })
    expect((await attemptRow(second.attemptId)).status).toBe('expired')
    const list = (await h.call('GET', '/exams', { token: tech.token })).body
    expect(list.find((e: { id: number }) => e.id === exam.id)).toMatchObject({ attempts_used: 2, max_attempts: 2 })
  })
  it('serializes concurrent starts: one attempt, even when the limit is 1', async () => {
    const exam = await create({ exam_type: 'final', max_attempts: 1 })
    const tech = await h.user()
    const results = await Promise.all([1, 2, 3].map(() => h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })))
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201])
    expect(new Set(results.map((r) => r.body.attemptId)).size).toBe(1)
    expect(await h.sql('select id from exam_attempts where exam_id = ?', [exam.id])).toHaveLength(1)
  })
  it('lets practice exams be taken again and again', async () => {
    const exam = await create()
    const tech = await h.user()
    for (let n = 1; n <= 3; n++) {
      const attempt = await startAttempt(tech, exam.id)
      expect(attempt.attemptNumber).toBe(n)
      expect(
        (
          await submit(
            tech,
            exam.id,
            attempt,
            attempt.questions.map(() => -1),
          )
        ).status,
      ).toBe(200)
    }
  })
})

describe('PUT /exams/attempts/{attemptId}/answers', () => {
  it('saves answers as the learner goes', async () => {
    const exam = await create()
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const answers = correctAnswers(exam, attempt)
    const res = await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, {
      token: tech.token,
      body: { questionIds: [attempt.questions[2]!.id, attempt.questions[0]!.id], answers: [answers[2], answers[0]] },
    })
    expect(res.status).toBe(200)
    expect(Date.parse(res.body.savedAt)).not.toBeNaN()
    expect((await attemptRow(attempt.attemptId)).answers).toEqual([answers[0], -1, answers[2]])
  })
  it('refuses bad answers, foreign and unknown attempts with 4xx and changes nothing', async () => {
    const exam = await create()
    const tech = await h.user()
    const intruder = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const mcq = attempt.questions.find((q) => q.question_type === 'multiple_choice')!
    const multi = attempt.questions.find((q) => q.question_type === 'multi_select')
    const before = await attemptRow(attempt.attemptId)
    const url = `/exams/attempts/${attempt.attemptId}/answers`
    const cases: [string, Record<string, unknown>, number, string?][] = [
      [url, { questionIds: [999999], answers: [0] }, 400, 'question_not_in_attempt'],
      [url, { questionIds: [mcq.id], answers: [[0]] }, 400, 'invalid_answer'],
      [url, { questionIds: [mcq.id], answers: [mcq.options.length] }, 400, 'invalid_answer'],
      [url, { questionIds: [mcq.id], answers: [-2] }, 400, 'validation_failed'],
      [url, { questionIds: [mcq.id, mcq.id], answers: [0, 1] }, 400, 'duplicate_answer'],
      [url, { questionIds: [mcq.id], answers: [0, 1] }, 400, 'answers_mismatch'],
      [url, { questionIds: [mcq.id], answers: ['0'] }, 400, 'validation_failed'],
      [url, { answers: [0] }, 400, 'validation_failed'],
      ['/exams/attempts/not-a-uuid/answers', { questionIds: [mcq.id], answers: [0] }, 400],
      [`/exams/attempts/${crypto.randomUUID()}/answers`, { questionIds: [mcq.id], answers: [0] }, 404, 'attempt_not_found'],
    ]
    if (multi)
      cases.push(
        [url, { questionIds: [multi.id], answers: [1] }, 400, 'invalid_answer'],
        [url, { questionIds: [multi.id], answers: [[1, 0]] }, 400, 'invalid_answer'],
        [url, { questionIds: [multi.id], answers: [[0, 0]] }, 400, 'invalid_answer'],
        [url, { questionIds: [multi.id], answers: [[0, 9]] }, 400, 'invalid_answer'],
      )
    for (const [path, body, status, code] of cases) {
      const res = await h.call('PUT', path, { token: tech.token, body })
      expect(res.status, JSON.stringify(body)).toBe(status)
      if (code) expect(res.body.code, JSON.stringify(body)).toBe(code)
    }
    const foreign = await h.call('PUT', url, { token: intruder.token, body: { questionIds: [mcq.id], answers: [0] } })
    expect(foreign).toMatchObject({ status: 404, body: { message: 'Attempt not found' } })
    expect((await h.call('PUT', url, { body: { questionIds: [mcq.id], answers: [0] } })).status).toBe(401)
    expect(await attemptRow(attempt.attemptId)).toEqual(before)
  })
  it('refuses a save after the attempt was submitted (409) and keeps the result', async () => {
    const exam = await create()
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    await submit(tech, exam.id, attempt, correctAnswers(exam, attempt))
    const before = await attemptRow(attempt.attemptId)
    const res = await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, { token: tech.token, body: { questionIds: [attempt.questions[0]!.id], answers: [-1] } })
    expect(res).toMatchObject({ status: 409, body: { code: 'attempt_finalised' } })
    expect(await attemptRow(attempt.attemptId)).toEqual(before)
  })
})

describe('POST /exams/{id}/submit', () => {
  it('grades on the server, stores the result and records the event once', async () => {
    const exam = await create({ pass_score: 60 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const answers: unknown[] = correctAnswers(exam, attempt)
    const wrongIndex = attempt.questions.findIndex((q) => exam.questions.find((p) => p.id === q.id)!.category_weight === 1)
    answers[wrongIndex] = wrongAnswer(exam, attempt, wrongIndex)
    const res = await submit(tech, exam.id, attempt, answers)
    expect(res.status).toBe(200)
    const result = ExamSubmissionResult.parse(res.body)
    const weights = attempt.questions.map((q) => exam.questions.find((p) => p.id === q.id)!.category_weight)
    const total = weights.reduce((s, w) => s + w, 0)
    const expected = Math.round(((total - weights[wrongIndex]!) / total) * 10000) / 100
    expect(result).toMatchObject({
      attemptId: attempt.attemptId,
      examId: exam.id,
      exam_name: 'Ladder Safety',
      score: expected,
      passed: expected >= 60,
      correct_answers: 2,
      total_questions: 3,
      attempt_number: 1,
    })
    expect(result.question_results.map((r) => r.question_id)).toEqual(attempt.questions.map((q) => q.id))
    expect(result.question_results[wrongIndex]!.is_correct).toBe(false)
    expect(result.section_scores.reduce((s, x) => s + x.questions_in_section, 0)).toBe(3)
    const row = await attemptRow(attempt.attemptId)
    expect(row).toMatchObject({ status: 'submitted', answers, score: expected, passed: expected >= 60, result: res.body })
    expect(row.finalised_at).not.toBeNull()

    const again = await submit(
      tech,
      exam.id,
      attempt,
      attempt.questions.map(() => -1),
    )
    expect(again).toMatchObject({ status: 200, body: res.body })
    const events = await submittedEvents(attempt.attemptId)
    expect(events).toHaveLength(1)
    expect(events[0]!.data).toEqual({
      userId: tech.id,
      examId: exam.id,
      examName: 'Ladder Safety',
      attemptId: attempt.attemptId,
      attemptNumber: 1,
      score: expected,
      passed: expected >= 60,
    })
  })
  it('counts concurrent submits of one attempt once', async () => {
    const exam = await create()
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const results = await Promise.all([1, 2, 3].map(() => submit(tech, exam.id, attempt, correctAnswers(exam, attempt))))
    expect(results.map((r) => r.status)).toEqual([200, 200, 200])
    expect(results[1]!.body).toEqual(results[0]!.body)
    expect(results[2]!.body).toEqual(results[0]!.body)
    expect(await submittedEvents(attempt.attemptId)).toHaveLength(1)
  })
  it('keeps a graded attempt unchanged when the exam is edited later', async () => {
    const exam = await create()
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const first = (await submit(tech, exam.id, attempt, correctAnswers(exam, attempt))).body
    const edited = examInput({ questions: exam.questions.map((q) => ({ ...q, question_text: 'changed', correct_answer: q.question_type === 'multi_select' ? [2] : 1 })) })
    expect((await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: edited })).status).toBe(200)
    expect((await submit(tech, exam.id, attempt, correctAnswers(exam, attempt))).body).toEqual(first)
    const stats = (await h.call('GET', `/users/${tech.id}/stats`, { token: tech.token })).body
    expect(stats.examHistory[0]).toMatchObject({ score: 100, examName: 'Ladder Safety' })
  })
  it('refuses answers that do not match the attempt, and other learners, changing nothing', async () => {
    const exam = await create()
    const other = await create({ name: 'Other' })
    const tech = await h.user()
    const intruder = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const ids = attempt.questions.map((q) => q.id)
    const before = await attemptRow(attempt.attemptId)
    const post = (token: string, examId: number, body: Record<string, unknown>) =>
      h.call('POST', `/exams/${examId}/submit`, { token, body: { attemptId: attempt.attemptId, ...body } })
    expect(await post(tech.token, exam.id, { questionIds: ids.slice(0, 2), answers: [-1, -1] })).toMatchObject({ status: 400, body: { code: 'answers_mismatch' } })
    expect(await post(tech.token, exam.id, { questionIds: [...ids, 999999], answers: [-1, -1, -1, -1] })).toMatchObject({ status: 400, body: { code: 'question_not_in_attempt' } })
    expect(await post(tech.token, exam.id, { questionIds: [ids[0], ids[0], ids[1]], answers: [-1, -1, -1] })).toMatchObject({ status: 400, body: { code: 'duplicate_answer' } })
    expect(await post(tech.token, exam.id, { questionIds: ids, answers: [-1, -1] })).toMatchObject({ status: 400, body: { code: 'answers_mismatch' } })
    expect(await post(tech.token, exam.id, { questionIds: ids, answers: [7, 7, 7] })).toMatchObject({ status: 400, body: { code: 'invalid_answer' } })
    expect(await post(tech.token, exam.id, { questionIds: [0, ...ids.slice(1)], answers: [-1, -1, -1] })).toMatchObject({
      status: 400,
      body: { message: 'Some questions are missing IDs' },
    })
    expect(await post(intruder.token, exam.id, { questionIds: ids, answers: [-1, -1, -1] })).toMatchObject({ status: 404, body: { code: 'attempt_not_found' } })
    expect(await post(admin.token, exam.id, { questionIds: ids, answers: [-1, -1, -1] })).toMatchObject({ status: 404 })
    expect(await post(tech.token, other.id, { questionIds: ids, answers: [-1, -1, -1] })).toMatchObject({ status: 404 })
    expect(await attemptRow(attempt.attemptId)).toEqual(before)
    expect(await submittedEvents(attempt.attemptId)).toEqual([])
  })
  it("takes the spec's payload (userId, answers, questionIds, no attemptId): the learner's open attempt is graded, a repeat answers its result", async () => {
    const exam = await create()
    const tech = await h.user()
    const other = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const questionIds = attempt.questions.map((q) => q.id)
    const body = { userId: tech.id, answers: correctAnswers(exam, attempt), questionIds }
    // Nobody else's attempt is found, and a userId that is not the caller's is refused.
    expect(await h.call('POST', `/exams/${exam.id}/submit`, { token: other.token, body: { ...body, userId: undefined } })).toMatchObject({
      status: 404,
      body: { code: 'attempt_not_found' },
    })
    expect(await h.call('POST', `/exams/${exam.id}/submit`, { token: other.token, body: { ...body, userId: other.id } })).toMatchObject({ status: 404 })
    expect(await h.call('POST', `/exams/${exam.id}/submit`, { token: tech.token, body: { ...body, userId: other.id } })).toMatchObject({
      status: 403,
      body: { code: 'not_your_attempt' },
    })
    expect((await attemptRow(attempt.attemptId)).status).toBe('in_progress')

    const res = await h.call('POST', `/exams/${exam.id}/submit`, { token: tech.token, body })
    expect(res).toMatchObject({ status: 200, body: { attemptId: attempt.attemptId, score: 100 } })
    expect((await attemptRow(attempt.attemptId)).status).toBe('submitted')
    const again = await h.call('POST', `/exams/${exam.id}/submit`, { token: tech.token, body: { ...body, answers: questionIds.map(() => -1) } })
    expect(again).toMatchObject({ status: 200, body: res.body })
    expect(await submittedEvents(attempt.attemptId)).toHaveLength(1)
  })
  it('accepts a submit within the grace after the deadline', async () => {
    const exam = await create({ time_limit: 1 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    h.advance(60_000 + SUBMIT_GRACE_MS - 1500)
    const res = await submit(tech, exam.id, attempt, correctAnswers(exam, attempt))
    expect(res.body).toMatchObject({ score: 100, correct_answers: 3 })
    expect((await attemptRow(attempt.attemptId)).status).toBe('submitted')
  })
})

describe('deadline', () => {
  it('the sweeper finalises an attempt past its deadline with the answers saved before it, once', async () => {
    const exam = await create({ time_limit: 2 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    const answers = correctAnswers(exam, attempt)
    await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, { token: tech.token, body: { questionIds: [attempt.questions[0]!.id], answers: [answers[0]] } })
    h.advance(60_000)
    await h.attempts.finaliseOverdue()
    expect((await attemptRow(attempt.attemptId)).status).toBe('in_progress')
    h.advance(60_000 + SUBMIT_GRACE_MS + 1000)
    expect(await h.attempts.finaliseOverdue()).toBeGreaterThanOrEqual(1)
    expect(await h.attempts.finaliseOverdue()).toBe(0)
    const row = await attemptRow(attempt.attemptId)
    expect(row.status).toBe('expired')
    expect(row.result.correct_answers).toBe(1)
    expect(row.result.question_results.map((r: { user_answer: unknown }) => r.user_answer)).toEqual([answers[0], -1, -1])

    // The browser comes back late: the server's result stands, whatever it sends now.
    const late = await submit(tech, exam.id, attempt, answers)
    expect(late).toMatchObject({ status: 200, body: row.result })
    const save = await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, {
      token: tech.token,
      body: { questionIds: [attempt.questions[1]!.id], answers: [answers[1]] },
    })
    expect(save.status).toBe(409)
    expect(await submittedEvents(attempt.attemptId)).toHaveLength(1)
  })
  it('a late submit finalises with the saved answers when the sweeper has not run', async () => {
    const exam = await create({ time_limit: 1 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    h.advance(2 * 60_000)
    const res = await submit(tech, exam.id, attempt, correctAnswers(exam, attempt))
    expect(res).toMatchObject({ status: 200, body: { score: 0, correct_answers: 0, passed: false } })
    expect((await attemptRow(attempt.attemptId)).status).toBe('expired')
    expect(await submittedEvents(attempt.attemptId)).toHaveLength(1)
  })
  it('a late save finalises the attempt and answers 409', async () => {
    const exam = await create({ time_limit: 1 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    h.advance(2 * 60_000)
    const res = await h.call('PUT', `/exams/attempts/${attempt.attemptId}/answers`, { token: tech.token, body: { questionIds: [attempt.questions[0]!.id], answers: [-1] } })
    expect(res).toMatchObject({ status: 409, body: { code: 'attempt_finalised' } })
    expect((await attemptRow(attempt.attemptId)).status).toBe('expired')
    expect(await submittedEvents(attempt.attemptId)).toHaveLength(1)
  })
  it('reading the stats finalises the reader’s overdue attempts', async () => {
    const exam = await create({ time_limit: 1 })
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    h.advance(2 * 60_000)
    const stats = await h.call('GET', `/users/${tech.id}/stats`, { token: tech.token })
    expect(stats.body).toMatchObject({ examsTaken: 1, averageScore: 0 })
    expect((await attemptRow(attempt.attemptId)).status).toBe('expired')
  })
})

describe('options shuffled per attempt', () => {
  /** Four questions of four options, every correct one listed first (as the demo exams had them). */
  const rightFirst = (over: Record<string, unknown> = {}) => {
    const mc = (t: string) => ({ question_type: 'multiple_choice', question_text: t, options: [`${t} right`, `${t} b`, `${t} c`, `${t} d`], correct_answer: 0 })
    const ms = (t: string) => ({ question_type: 'multi_select', question_text: t, options: [`${t} right`, `${t} right too`, `${t} c`, `${t} d`], correct_answer: [0, 1] })
    return { name: 'Right first', total_questions: 4, subject_categories: [], questions: [mc('M1'), mc('M2'), ms('S1'), ms('S2')], ...over }
  }
  const poolOf = (exam: Exam, q: AttemptQuestion) => exam.questions.find((p) => p.id === q.id)!
  const blank = (attempt: StartAttemptResponse) => attempt.questions.map(() => -1)

  it('shows every attempt an order of its own, drawn and kept by the server: over 20 attempts the correct option is not always first', async () => {
    const exam = await create(rightFirst())
    expect(exam.shuffle_options).toBe(true)
    const tech = await h.user()
    const orders = new Map<number, Set<string>>()
    const rightAt = new Map<number, Set<number>>()
    for (let n = 0; n < 20; n++) {
      const attempt = await startAttempt(tech, exam.id)
      for (const q of attempt.questions) {
        const pool = poolOf(exam, q)
        expect([...q.options].sort()).toEqual([...pool.options].sort())
        orders.set(q.id, (orders.get(q.id) ?? new Set()).add(q.options.join('|')))
        rightAt.set(q.id, (rightAt.get(q.id) ?? new Set()).add(q.options.indexOf(pool.options[0]!)))
      }
      // The attempt holds the permutation it showed: position → the option's place in the pool.
      const row = await attemptRow(attempt.attemptId)
      expect(row.option_orders.map((order: number[], i: number) => order.map((j) => row.questions[i].options[j]))).toEqual(attempt.questions.map((q) => q.options))
      expect((await submit(tech, exam.id, attempt, blank(attempt))).status).toBe(200)
    }
    for (const q of exam.questions) {
      expect(orders.get(q.id)!.size, q.question_text).toBeGreaterThan(1)
      expect(rightAt.get(q.id)!.size, q.question_text).toBeGreaterThan(1)
    }
  })

  it('shows the same order, and the answers given in it, when the attempt is resumed', async () => {
    const exam = await create(rightFirst())
    const tech = await h.user()
    const first = await startAttempt(tech, exam.id)
    // Four questions of four options all left in the pool's order: 1 in 24^4.
    expect(first.questions.some((q) => q.options.join('|') !== poolOf(exam, q).options.join('|'))).toBe(true)
    const right = correctAnswers(exam, first)
    const save = await h.call('PUT', `/exams/attempts/${first.attemptId}/answers`, {
      token: tech.token,
      body: { questionIds: [first.questions[0]!.id, first.questions[2]!.id], answers: [right[0], right[2]] },
    })
    expect(save.status).toBe(200)
    const before = (await attemptRow(first.attemptId)).option_orders
    for (let n = 0; n < 3; n++) {
      const again = await startAttempt(tech, exam.id, 200)
      expect(again.questions).toEqual(first.questions)
      expect(again.answers).toEqual([right[0], -1, right[2], -1])
    }
    expect((await attemptRow(first.attemptId)).option_orders).toEqual(before)
    const result = ExamSubmissionResult.parse((await submit(tech, exam.id, first, [right[0], -1, right[2], -1])).body)
    expect(result.question_results.map((r) => r.is_correct)).toEqual([true, false, true, false])
  })

  it('grades answers given in the order shown (multiple choice and multi-select) and reviews them in that order', async () => {
    const exam = await create(rightFirst({ pass_score: 50 }))
    const tech = await h.user()
    let poolIndexesWrong = 0
    for (let n = 0; n < 6; n++) {
      const attempt = await startAttempt(tech, exam.id)
      const right = correctAnswers(exam, attempt)
      // Odd attempts: every answer right. Even ones: the pool's own indexes (0, [0, 1]), right only where the shuffle left them.
      const answers = n % 2 ? right : attempt.questions.map((q) => poolOf(exam, q).correct_answer)
      const res = await submit(tech, exam.id, attempt, answers)
      expect(res.status).toBe(200)
      const result = ExamSubmissionResult.parse(res.body)
      const expected = answers.map((a, i) => JSON.stringify(a) === JSON.stringify(right[i]))
      expect(result.question_results.map((r) => r.is_correct)).toEqual(expected)
      if (n % 2) expect(result.score).toBe(100)
      else poolIndexesWrong += expected.filter((ok) => !ok).length
      // The review: the options as the learner saw them, their answer and the correct ones as indexes into that order.
      result.question_results.forEach((r, i) => {
        expect(r.options).toEqual(attempt.questions[i]!.options)
        expect(r.user_answer).toEqual(answers[i])
        expect(r.correct_answer).toEqual(right[i])
      })
      expect(result.question_results.find((r) => r.question_type === 'multi_select')!.correct_answer).toEqual(expect.any(Array))
      const row = await attemptRow(attempt.attemptId)
      expect(row.answers).toEqual(answers)
      expect(row.result).toEqual(res.body)
    }
    // The pool's indexes are right only by chance once the options are shuffled (all 12 right: about 1 in 10^8).
    expect(poolIndexesWrong).toBeGreaterThan(0)
  })

  it('keeps the pool order of questions marked keep_option_order, and of every question when the exam does not shuffle', async () => {
    const marked = rightFirst().questions.map((q, i) => (i % 2 ? { ...q, keep_option_order: true } : q))
    const keep = await create(rightFirst({ questions: marked }))
    const off = await create(rightFirst({ shuffle_options: false }))
    expect(keep.questions.map((q) => q.keep_option_order)).toEqual([false, true, false, true])
    expect(off.shuffle_options).toBe(false)
    const tech = await h.user()
    const shuffledOrders = new Set<string>()
    for (let n = 0; n < 10; n++) {
      const a = await startAttempt(tech, keep.id)
      for (const q of a.questions) {
        const pool = poolOf(keep, q)
        if (pool.keep_option_order) expect(q.options).toEqual(pool.options)
        else shuffledOrders.add(q.options.join('|'))
      }
      const b = await startAttempt(tech, off.id)
      for (const q of b.questions) expect(q.options).toEqual(poolOf(off, q).options)
      expect(
        (
          await submit(
            tech,
            off.id,
            b,
            b.questions.map((q) => poolOf(off, q).correct_answer),
          )
        ).body.score,
      ).toBe(100)
      await submit(tech, keep.id, a, blank(a))
    }
    expect(shuffledOrders.size).toBeGreaterThan(2)
  })

  it('grades an attempt started before options were shuffled in the stored order', async () => {
    const exam = await create(rightFirst())
    const tech = await h.user()
    const attempt = await startAttempt(tech, exam.id)
    // What the migration leaves on attempts under way: no permutation, and the options as stored.
    const stored = (await attemptRow(attempt.attemptId)).questions
    await h.sql('update exam_attempts set option_orders = null where id = ?', [attempt.attemptId])
    const resumed = await startAttempt(tech, exam.id, 200)
    expect(resumed.questions.map((q) => q.options)).toEqual(stored.map((q: { options: string[] }) => q.options))
    const res = await submit(
      tech,
      exam.id,
      attempt,
      resumed.questions.map((q) => poolOf(exam, q).correct_answer),
    )
    expect(res.body).toMatchObject({ score: 100 })
    expect(res.body.question_results.map((r: { options: string[] }) => r.options)).toEqual(stored.map((q: { options: string[] }) => q.options))
  })

  it('never sends the pool order, the permutation or the answers before the submit', async () => {
    const exam = await create(rightFirst({ questions: rightFirst().questions.map((q, i) => ({ ...q, keep_option_order: i < 2 })) }))
    const tech = await h.user()
    const started = await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })
    const resumed = await h.call('POST', `/exams/${exam.id}/attempts`, { token: tech.token })
    for (const body of [started.body, resumed.body]) {
      expect(Object.keys(body).sort()).toEqual(
        ['attemptId', 'attemptNumber', 'countedNumber', 'deadline', 'questions', 'startedAt', ...(body === resumed.body ? ['answers'] : [])].sort(),
      )
      for (const q of body.questions) expect(Object.keys(q).sort()).toEqual(['id', 'options', 'question_text', 'question_type', 'subject_category'])
      expect(JSON.stringify(body)).not.toMatch(/correct|order|shuffle|weight/)
    }
    const q = started.body.questions[0]
    const save = await h.call('PUT', `/exams/attempts/${started.body.attemptId}/answers`, {
      token: tech.token,
      body: { questionIds: [q.id], answers: [q.question_type === 'multi_select' ? [0] : 0] },
    })
    expect(Object.keys(save.body)).toEqual(['savedAt'])
    for (const path of [`/exams/${exam.id}`, '/exams']) {
      const res = await h.call('GET', path, { token: tech.token })
      expect(JSON.stringify(res.body), path).not.toMatch(/correct|order|shuffle|"options"/)
    }
  })
})
