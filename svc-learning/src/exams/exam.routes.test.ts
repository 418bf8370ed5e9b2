import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, ExamSummary, LearnerExam } from '@portal/contracts'
import { createHarness, examInput, type Harness, type TestUser } from '../harness.test-support.ts'

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

const create = async (over: Record<string, unknown> = {}) => {
  const res = await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })
  expect(res.status).toBe(201)
  return Exam.parse(res.body)
}
const snapshot = async () => ({
  exams: await h.sql('select * from exams order by id'),
  questions: await h.sql('select * from exam_questions order by id'),
  assignments: await h.sql('select * from exam_assignments order by exam_id, user_id'),
})

describe('POST /exams', () => {
  it('creates an exam with its pool, dropping blank options', async () => {
    const input = examInput()
    ;(input.questions as Record<string, unknown>[])[0]!.options = ['4:1', ' ', '2:1', '1:1', '']
    const res = await h.call('POST', '/exams', { token: admin.token, body: input })
    expect(res.status).toBe(201)
    const exam = Exam.parse(res.body)
    expect(exam).toMatchObject({ name: 'Ladder Safety', exam_type: 'practice', max_attempts: null, total_questions: 3, is_assigned_to_all: true })
    expect(exam.questions).toHaveLength(4)
    expect(exam.questions[0]).toMatchObject({ options: ['4:1', '2:1', '1:1'], correct_answer: 0, category_weight: 1 })
    expect(exam.questions[2]!.category_weight).toBe(2)
    expect(exam.questions.every((q) => Number.isInteger(q.id))).toBe(true)
  })
  it('forces max_attempts to null for practice exams and defaults it to 1 for final ones', async () => {
    expect((await create({ max_attempts: 5 })).max_attempts).toBeNull()
    expect((await create({ exam_type: 'final', max_attempts: undefined })).max_attempts).toBe(1)
    expect((await create({ exam_type: 'final', max_attempts: 3 })).max_attempts).toBe(3)
  })
  it('enforces every rule of the exam form and writes nothing', async () => {
    const before = await snapshot()
    const q = (over: Record<string, unknown>) => [{ ...(examInput().questions as Record<string, unknown>[])[0], ...over }]
    const cases: [Record<string, unknown>, string][] = [
      [{ total_questions: 0 }, 'Must have at least 1 question'],
      [{ total_questions: 5 }, 'Not enough questions in the pool'],
      [{ time_limit: 0 }, ''],
      [{ time_limit: 181 }, ''],
      [{ pass_score: -1 }, ''],
      [{ pass_score: 100.5 }, ''],
      [{ exam_type: 'final', max_attempts: 11 }, ''],
      [{ exam_type: 'final', max_attempts: 0 }, ''],
      [{ subject_categories: ['Setup', ' setup ', 'Use'] }, 'Subject category names must be unique'],
      [{ subject_categories: ['Setup', '  ', 'Use'] }, 'Subject category names cannot be empty'],
      [{ name: '  ' }, 'Exam name is required'],
      [{ total_questions: 1, questions: q({ question_text: ' ' }) }, 'Question text is required'],
      [{ total_questions: 1, questions: q({ options: ['only', ' '] }) }, 'A question needs at least two options'],
      [{ total_questions: 1, questions: q({ correct_answer: 3 }) }, 'The correct answer must be one of the options'],
      [{ total_questions: 1, questions: q({ correct_answer: [0] }) }, 'The correct answer must be one of the options'],
      [{ total_questions: 1, questions: q({ question_type: 'multi_select', correct_answer: [1, 0] }) }, 'Select at least one correct option (a sorted list of option indexes)'],
      [{ total_questions: 1, questions: q({ question_type: 'multi_select', correct_answer: [0, 0] }) }, 'Select at least one correct option (a sorted list of option indexes)'],
      [{ total_questions: 1, questions: q({ question_type: 'multi_select', correct_answer: [0, 5] }) }, 'Select at least one correct option (a sorted list of option indexes)'],
      [{ total_questions: 1, questions: q({ subject_category: 'Nope' }) }, 'Unknown subject category'],
      [{ total_questions: 1, questions: q({ question_type: 'true_false' }) }, ''],
    ]
    for (const [over, message] of cases) {
      const res = await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })
      expect(res.status, JSON.stringify(over)).toBe(400)
      expect(res.body.code).toBe('validation_failed')
      if (message)
        expect(
          res.body.details.map((d: { message: string }) => d.message),
          JSON.stringify(over),
        ).toContain(message)
    }
    expect((await h.call('POST', '/exams', { token: admin.token, raw: '{not json' })).status).toBe(400)
    // Text that is not storable Unicode: a lone surrogate (a JSON "\ud800" escape) or a NUL.
    for (const over of [
      { name: 'Ladder \ud800' },
      { total_questions: 1, questions: q({ question_text: 'Angle \udc00?' }) },
      { total_questions: 1, questions: q({ options: ['a\u0000', 'b'] }) },
    ]) {
      const res = await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })
      expect([res.status, res.body.code], JSON.stringify(over)).toEqual([400, 'invalid_text'])
    }
    expect(await snapshot()).toEqual(before)
  })
  it('shuffles the options of a new exam unless told not to, and keeps a question in order only when asked', async () => {
    const byDefault = await create()
    expect(byDefault.shuffle_options).toBe(true)
    expect(byDefault.questions.map((q) => q.keep_option_order)).toEqual([false, false, false, false])
    const questions = (examInput().questions as Record<string, unknown>[]).map((q, i) => (i === 3 ? { ...q, keep_option_order: true } : q))
    const chosen = await create({ shuffle_options: false, questions })
    expect(chosen.shuffle_options).toBe(false)
    expect(chosen.questions.map((q) => q.keep_option_order)).toEqual([false, false, false, true])
    expect(Exam.parse((await h.call('GET', `/exams/${chosen.id}`, { token: admin.token })).body)).toMatchObject({ shuffle_options: false })
    expect(await h.sql('select shuffle_options from exams where id = ?', [chosen.id])).toEqual([{ shuffle_options: false }])
  })
  it('refuses shuffle_options and keep_option_order that are not booleans with 400 naming the field, and writes nothing', async () => {
    const before = await snapshot()
    const q = (over: Record<string, unknown>) => [{ ...(examInput().questions as Record<string, unknown>[])[0], ...over }]
    const cases: [Record<string, unknown>, string, string][] = [
      [{ shuffle_options: 'yes' }, 'shuffle_options', 'shuffle_options must be true or false'],
      [{ shuffle_options: 1 }, 'shuffle_options', 'shuffle_options must be true or false'],
      [{ shuffle_options: null }, 'shuffle_options', 'shuffle_options must be true or false'],
      [{ total_questions: 1, questions: q({ keep_option_order: 'true' }) }, 'questions.0.keep_option_order', 'keep_option_order must be true or false'],
      [{ total_questions: 1, questions: q({ keep_option_order: 0 }) }, 'questions.0.keep_option_order', 'keep_option_order must be true or false'],
    ]
    for (const [over, path, message] of cases) {
      const res = await h.call('POST', '/exams', { token: admin.token, body: examInput(over) })
      expect(res.status, JSON.stringify(over)).toBe(400)
      expect(res.body).toMatchObject({ code: 'validation_failed', message })
      expect(res.body.details, JSON.stringify(over)).toContainEqual({ path, message })
    }
    expect(await snapshot()).toEqual(before)
  })
  it('is for admins only', async () => {
    const before = await snapshot()
    const res = await h.call('POST', '/exams', { token: tech.token, body: examInput() })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('admin_required')
    expect((await h.call('POST', '/exams', { body: examInput() })).status).toBe(401)
    expect(await snapshot()).toEqual(before)
  })
})

describe('GET /exams and /exams/{id}', () => {
  it('lists what the caller may take: assigned to all or to them; admins see all', async () => {
    const forAll = await create({ name: 'For all' })
    const forTech = await create({ name: 'For tech', is_assigned_to_all: false })
    const forNobody = await create({ name: 'For nobody', is_assigned_to_all: false })
    expect((await h.call('POST', `/exams/${forTech.id}/assign`, { token: admin.token, body: { userIds: [tech.id] } })).status).toBe(200)

    const techList = await h.call('GET', '/exams', { token: tech.token })
    expect(techList.status).toBe(200)
    const names = techList.body.map((e: ExamSummary) => ExamSummary.parse(e).name)
    expect(names).toContain('For all')
    expect(names).toContain('For tech')
    expect(names).not.toContain('For nobody')
    expect(JSON.stringify(techList.body)).not.toContain('correct_answer')

    const otherNames = (await h.call('GET', '/exams', { token: other.token })).body.map((e: ExamSummary) => e.name)
    expect(otherNames).not.toContain('For tech')
    const adminNames = (await h.call('GET', '/exams', { token: admin.token })).body.map((e: ExamSummary) => e.name)
    expect(adminNames).toEqual(expect.arrayContaining(['For all', 'For tech', 'For nobody']))
    expect(forAll.id).toBeLessThan(forNobody.id)
  })
  it('gives admins the whole exam and learners the exam without answers or weights', async () => {
    const exam = await create({ name: 'Answers hidden' })
    const asAdmin = await h.call('GET', `/exams/${exam.id}`, { token: admin.token })
    expect(Exam.parse(asAdmin.body).questions[0]!.correct_answer).toBe(0)
    const asTech = await h.call('GET', `/exams/${exam.id}`, { token: tech.token })
    expect(asTech.status).toBe(200)
    const learner = LearnerExam.parse(asTech.body)
    expect(learner.questions).toHaveLength(0) // the pool stays hidden until an attempt draws from it
    expect(learner).toMatchObject({ name: 'Answers hidden', total_questions: 3, attempts_used: 0, subject_categories: ['Setup', 'Use'] })
    expect(JSON.stringify(asTech.body)).not.toMatch(/correct_answer|category_weight|assigned_user_ids/)
  })
  it('answers 404 for an unknown exam and 403 when it is not assigned to the caller', async () => {
    const hidden = await create({ is_assigned_to_all: false })
    expect(await h.call('GET', '/exams/999999', { token: tech.token })).toMatchObject({ status: 404, body: { message: 'Exam not found', code: 'exam_not_found' } })
    expect(await h.call('GET', `/exams/${hidden.id}`, { token: tech.token })).toMatchObject({ status: 403, body: { code: 'exam_not_assigned' } })
    expect((await h.call('GET', '/exams/abc', { token: tech.token })).status).toBe(400)
    expect((await h.call('GET', '/exams/99999999999', { token: tech.token })).status).toBe(400)
    expect((await h.call('GET', '/exams')).status).toBe(401)
  })
})

describe('GET /admin/exams', () => {
  it('lists every exam with pool and answers for admins, and nothing for others', async () => {
    const res = await h.call('GET', '/admin/exams', { token: admin.token })
    expect(res.status).toBe(200)
    const exams = res.body.map((e: unknown) => Exam.parse(e))
    expect(exams.length).toBeGreaterThan(0)
    expect(exams[0].questions[0]).toHaveProperty('correct_answer')
    expect(await h.call('GET', '/admin/exams', { token: tech.token })).toMatchObject({ status: 403, body: { code: 'admin_required' } })
  })
})

describe('PUT /exams/{id}', () => {
  it('updates questions with an id in place, adds new ones and removes missing ones', async () => {
    const exam = await create({ name: 'Editable' })
    const [q1, q2, , q4] = exam.questions
    const input = examInput({
      name: 'Edited',
      total_questions: 2,
      exam_type: 'final',
      max_attempts: 2,
      questions: [
        { ...q2, question_text: 'Inspect what?', correct_answer: [0] },
        { id: q4!.id, question_type: 'multiple_choice', question_text: 'Top rung?', options: ['Yes', 'No'], correct_answer: 1, subject_category: 'Use' },
        { question_type: 'multiple_choice', question_text: 'New one', options: ['a', 'b'], correct_answer: 1, subject_category: null },
      ],
    })
    const res = await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: input })
    expect(res.status).toBe(200)
    const edited = Exam.parse(res.body)
    expect(edited).toMatchObject({ name: 'Edited', exam_type: 'final', max_attempts: 2, total_questions: 2 })
    expect(edited.questions.map((q) => q.id).slice(0, 2)).toEqual([q2!.id, q4!.id])
    expect(edited.questions[0]).toMatchObject({ question_text: 'Inspect what?', correct_answer: [0] })
    expect(edited.questions[2]!.id).toBeGreaterThan(q4!.id)
    expect(edited.questions.map((q) => q.id)).not.toContain(q1!.id)
  })
  it('keeps the shuffle setting and each kept order when a PUT leaves them out, and changes them when it sends them', async () => {
    const questions = (examInput().questions as Record<string, unknown>[]).map((q, i) => (i === 1 ? { ...q, keep_option_order: true } : q))
    const exam = await create({ name: 'Legacy client', shuffle_options: false, questions })
    // A client that knows nothing of shuffling sends the exam back without the new fields.
    const resent = examInput({ name: 'Legacy client', questions: exam.questions.map(({ keep_option_order: _k, ...q }) => q) })
    delete resent.shuffle_options
    const same = Exam.parse((await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: resent })).body)
    expect(same.shuffle_options).toBe(false)
    expect(same.questions.map((q) => q.keep_option_order)).toEqual([false, true, false, false])
    const flipped = examInput({
      name: 'Legacy client',
      shuffle_options: true,
      questions: [
        ...exam.questions.map((q, i) => ({ ...q, keep_option_order: i === 2 })),
        { question_type: 'multiple_choice', question_text: 'New', options: ['a', 'b'], correct_answer: 0 },
      ],
    })
    const changed = Exam.parse((await h.call('PUT', `/exams/${exam.id}`, { token: admin.token, body: flipped })).body)
    expect(changed.shuffle_options).toBe(true)
    expect(changed.questions.map((q) => q.keep_option_order)).toEqual([false, false, true, false, false])
  })
  it('refuses question ids of another exam, bad input, non-admins and unknown exams, changing nothing', async () => {
    const a = await create({ name: 'A' })
    const b = await create({ name: 'B' })
    const before = await snapshot()
    const foreign = examInput({ questions: [...(examInput().questions as Record<string, unknown>[]).slice(0, 3), { ...b.questions[0] }] })
    expect(await h.call('PUT', `/exams/${a.id}`, { token: admin.token, body: foreign })).toMatchObject({ status: 400, body: { code: 'unknown_question' } })
    const dup = examInput({ questions: [a.questions[0], a.questions[0], a.questions[1], a.questions[2]] })
    expect(await h.call('PUT', `/exams/${a.id}`, { token: admin.token, body: dup })).toMatchObject({ status: 400, body: { code: 'duplicate_question' } })
    expect((await h.call('PUT', `/exams/${a.id}`, { token: admin.token, body: examInput({ total_questions: 9 }) })).status).toBe(400)
    expect((await h.call('PUT', `/exams/${a.id}`, { token: tech.token, body: examInput() })).status).toBe(403)
    expect((await h.call('PUT', '/exams/999999', { token: admin.token, body: examInput() })).status).toBe(404)
    expect(await snapshot()).toEqual(before)
  })
})

describe('DELETE /exams/{id} and POST /exams/{id}/assign', () => {
  it('deletes an exam for admins only', async () => {
    const exam = await create({ name: 'Doomed' })
    expect((await h.call('DELETE', `/exams/${exam.id}`, { token: tech.token })).status).toBe(403)
    const res = await h.call('DELETE', `/exams/${exam.id}`, { token: admin.token })
    expect(res).toMatchObject({ status: 200, body: { message: 'Exam deleted successfully' } })
    expect(await h.sql('select * from exam_questions where exam_id = ?', [exam.id])).toEqual([])
    expect((await h.call('DELETE', `/exams/${exam.id}`, { token: admin.token })).status).toBe(404)
  })
  it('sets the assigned users (the selection replaces the previous one)', async () => {
    const exam = await create({ is_assigned_to_all: false })
    const first = await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [tech.id, other.id, tech.id] } })
    expect(first).toMatchObject({ status: 200, body: { assigned: 2 } })
    expect(typeof first.body.message).toBe('string')
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [other.id] } })
    const got = Exam.parse((await h.call('GET', `/exams/${exam.id}`, { token: admin.token })).body)
    expect(got.assigned_user_ids).toEqual([other.id])
    expect((await h.call('GET', `/exams/${exam.id}`, { token: tech.token })).status).toBe(403)
  })
  it('accepts only existing non-admin users: 400 naming the unknown ids and the admins, and nothing changes', async () => {
    const exam = await create({ is_assigned_to_all: false })
    await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [tech.id] } })
    const before = await snapshot()
    const unknown = '00000000-0000-4000-8000-000000000000'
    const refused = await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [other.id, unknown] } })
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_assignees', message: `Only existing non-admin users can be assigned. Unknown user id(s): ${unknown}.` } })
    expect(await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [admin.id] } })).toMatchObject({
      status: 400,
      body: { code: 'invalid_assignees', details: [{ userId: admin.id, message: 'Admins cannot be assigned' }] },
    })
    const many = Array.from({ length: 7 }, () => crypto.randomUUID())
    const long = await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: many } })
    expect(long.body.message).toBe(`Only existing non-admin users can be assigned. Unknown user id(s): ${many.slice(0, 5).join(', ')} and 2 more.`)
    expect(long.body.details).toHaveLength(7)
    expect(await snapshot()).toEqual(before)
  })
  it('needs at least one valid user, an admin and an existing exam', async () => {
    const exam = await create({ is_assigned_to_all: false })
    const empty = await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: [] } })
    expect(empty).toMatchObject({ status: 400, body: { message: 'Please select at least one user' } })
    expect((await h.call('POST', `/exams/${exam.id}/assign`, { token: admin.token, body: { userIds: ['nope'] } })).status).toBe(400)
    expect((await h.call('POST', `/exams/${exam.id}/assign`, { token: tech.token, body: { userIds: [tech.id] } })).status).toBe(403)
    expect((await h.call('POST', '/exams/999999/assign', { token: admin.token, body: { userIds: [tech.id] } })).status).toBe(404)
    expect(await h.sql('select * from exam_assignments where exam_id = ?', [exam.id])).toEqual([])
  })
})
