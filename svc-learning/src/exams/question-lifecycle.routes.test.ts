import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, ExamSubmissionResult, ItemAnalysis, StartAttemptResponse } from '@portal/contracts'
import { correctAnswersAsShown, createHarness, examInput, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  tech = await h.user()
})
afterAll(async () => {
  await h?.close()
})

const create = async (over: Record<string, unknown> = {}) => Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })).body)
const adminExam = async (id: number) => Exam.parse(((await h.call('GET', '/admin/exams', { token: admin.token })).body as unknown[]).find((e) => (e as Exam).id === id))
const retire = (examId: number, questionId: number, token = admin.token) => h.call('POST', `/admin/exams/${examId}/questions/${questionId}/retire`, { token })
const restore = (examId: number, questionId: number) => h.call('POST', `/admin/exams/${examId}/questions/${questionId}/restore`, { token: admin.token })

/** Takes the exam as `who`, answering every question right; the attempt and its result. */
async function takeRight(exam: Exam, who: TestUser = tech) {
  const attempt = StartAttemptResponse.parse((await h.call('POST', `/exams/${exam.id}/attempts`, { token: who.token })).body)
  const body = { attemptId: attempt.attemptId, answers: correctAnswersAsShown(exam, attempt), questionIds: attempt.questions.map((q) => q.id) }
  const res = await h.call('POST', `/exams/${exam.id}/submit`, { token: who.token, body })
  expect(res.status).toBe(200)
  return { attempt, body, result: ExamSubmissionResult.parse(res.body) }
}

/** The PUT body that keeps the exam as it is, with `questions` instead. */
const putBody = (exam: Exam, questions: Exam['questions']) =>
  examInput({ name: exam.name, total_questions: exam.total_questions, subject_categories: exam.subject_categories, questions })

describe('question lifecycle', () => {
  it('retires a question: kept apart, never offered again, an old result still shows it; refused below the questions drawn; restored', async () => {
    const exam = await create({ total_questions: 3 })
    const [gone, ...rest] = exam.questions
    const before = await takeRight(exam)
    expect(before.attempt.questions.map((q) => q.id)).not.toHaveLength(0)

    const res = await retire(exam.id, gone!.id)
    expect(res.status).toBe(200)
    const after = Exam.parse(res.body)
    expect(after.questions.map((q) => q.id)).toEqual(rest.map((q) => q.id))
    expect(after.retired_questions).toMatchObject([{ id: gone!.id, question_text: gone!.question_text, replaced_by: null }])
    expect((await adminExam(exam.id)).questions).toHaveLength(3)

    // The next attempts draw from the active questions only.
    for (let i = 0; i < 3; i++) {
      const { attempt } = await takeRight(after)
      expect(attempt.questions.map((q) => q.id).sort()).toEqual(rest.map((q) => q.id).sort())
    }
    // The result of the attempt taken before still shows it (a repeated submit answers the stored result).
    const again = ExamSubmissionResult.parse((await h.call('POST', `/exams/${exam.id}/submit`, { token: tech.token, body: before.body })).body)
    if (before.attempt.questions.some((q) => q.id === gone!.id)) expect(again.question_results.map((r) => r.question_text)).toContain(gone!.question_text)
    expect(again).toEqual(before.result)

    // Three questions drawn, three active: retiring one more is refused with admin §5's message.
    expect(await retire(exam.id, rest[0]!.id)).toMatchObject({ status: 422, body: { code: 'not_enough_in_pool', message: 'Not enough questions in the pool' } })
    expect((await adminExam(exam.id)).questions).toHaveLength(3)

    // The analysis still names it, as retired.
    const analysis = ItemAnalysis.parse((await h.call('GET', `/admin/exams/${exam.id}/item-analysis`, { token: admin.token })).body)
    expect(analysis.questions.find((q) => q.question_id === gone!.id)).toMatchObject({ status: 'retired', in_pool: false })
    expect(analysis.questions.filter((q) => q.status === 'active')).toHaveLength(3)

    const back = Exam.parse((await restore(exam.id, gone!.id)).body)
    expect(back.questions.map((q) => q.id)).toEqual(exam.questions.map((q) => q.id))
    expect(back.retired_questions).toEqual([])
  })

  it('an edit of an answered question makes a new version and retires the answered one; unanswered questions change in place', async () => {
    const exam = await create({ total_questions: 4, max_attempts: null })
    const { result } = await takeRight(exam)
    const fresh = await create({ name: 'Never taken', total_questions: 4 })

    const edited = exam.questions.map((q, i) => (i === 0 ? { ...q, question_text: 'Ladder angle ratio?' } : i === 1 ? { ...q, category_weight: 3 } : q))
    const res = await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: putBody(exam, edited) })
    expect(res.status).toBe(200)
    const after = Exam.parse(res.body)
    const [v2, ...others] = after.questions
    expect(v2!.id).not.toBe(exam.questions[0]!.id)
    expect(v2!.question_text).toBe('Ladder angle ratio?')
    // A weight change is no new version: what the learner answers is the same.
    expect(others.map((q) => q.id)).toEqual(exam.questions.slice(1).map((q) => q.id))
    expect(others[0]!.category_weight).toBe(3)
    expect(after.retired_questions).toMatchObject([{ id: exam.questions[0]!.id, question_text: 'Angle ratio?', replaced_by: v2!.id }])
    // The graded attempt keeps showing the version it answered.
    expect(result.question_results.map((r) => r.question_text)).toContain('Angle ratio?')

    // Leaving an answered question out retires it; an unanswered one is removed.
    const shorter = await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: { ...putBody(after, after.questions.slice(0, 3)), total_questions: 3 } })
    expect(shorter.body).toMatchObject({ id: exam.id })
    expect(Exam.parse(shorter.body).retired_questions!.map((q) => q.id)).toEqual([exam.questions[0]!.id, exam.questions[3]!.id])
    const freshEdit = fresh.questions.map((q, i) => (i === 0 ? { ...q, question_text: 'Changed' } : q))
    const freshRes = await h.call('PUT', `/exams/${fresh.id}`, { token: admin.token, body: { ...putBody(fresh, freshEdit.slice(0, 3)), total_questions: 3 } })
    expect(freshRes.body).toMatchObject({ id: fresh.id })
    const freshAfter = Exam.parse(freshRes.body)
    expect(freshAfter.questions.map((q) => q.id)).toEqual(fresh.questions.slice(0, 3).map((q) => q.id))
    expect(freshAfter.retired_questions).toEqual([])
  })

  it('is for admins; unknown questions and exams are 404', async () => {
    const exam = await create({ total_questions: 1 })
    expect(await retire(exam.id, exam.questions[0]!.id, tech.token)).toMatchObject({ status: 403, body: { code: 'admin_required' } })
    expect((await h.call('POST', `/admin/exams/${exam.id}/questions/1/retire`)).status).toBe(401)
    expect(await retire(exam.id, 999_999)).toMatchObject({ status: 404, body: { code: 'question_not_found' } })
    expect(await retire(999_999, exam.questions[0]!.id)).toMatchObject({ status: 404, body: { code: 'exam_not_found' } })
    expect((await retire(exam.id, Number.NaN)).status).toBe(400)
  })
})
