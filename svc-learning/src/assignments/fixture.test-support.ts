// Set-up of the assignment tests: people registered the way identity announces them (with branch,
// group and hire date), courses with one module and exams, and the learner's ways to complete them
// (a course's module through the progress routes, an exam through an attempt).
import { AssignmentRule, addDays, type AssignmentRuleInput, type Branch, type Department, type Exam, type StartAttemptResponse } from '@portal/contracts'
import type { Actor } from '@portal/server-kit'
import { correctAnswersAsShown, examInput, type Harness } from '../harness.test-support.ts'

export interface Person {
  id: string
  token: string
  actor: Actor
  name: string
  email: string
}

export function assignmentFixture(h: Harness) {
  let seq = 0
  /** Publishes identity's registration (or, with `id`, an update) of a person; resolves once learning's projection has it. */
  const person = async (
    o: {
      id?: string
      name?: string
      admin?: boolean
      manager?: boolean
      branch?: Branch | null
      department?: Department | null
      group?: string | null
      hireDate?: string | null
      at?: Date
    } = {},
  ): Promise<Person> => {
    seq++
    const id = o.id ?? crypto.randomUUID()
    const actor: Actor = {
      userId: id,
      email: `p${seq}-${id.slice(0, 6)}@acme.test`,
      name: o.name ?? `Person ${String(seq).padStart(3, '0')}`,
      isAdmin: Boolean(o.admin),
      isManager: Boolean(o.manager),
      managerScope: { branches: o.manager ? ['Portland'] : [], departments: [] },
    }
    await h.bus.publish({
      id: crypto.randomUUID(),
      type: o.id ? 'identity.user.updated.v1' : 'identity.user.registered.v1',
      occurredAt: (o.at ?? new Date()).toISOString(),
      data: { ...actor, branch: o.branch ?? null, department: o.department ?? null, userGroup: o.group ?? null, hireDate: o.hireDate ?? null, employeeId: null },
    })
    return { id, token: await h.issuer.sign(actor), actor, name: actor.name, email: actor.email }
  }

  /** A course with one (PDF) module, assigned to nobody; resolves with its and its module's ids. */
  const course = async (title = 'Annual Safety Refresher', o: { toAll?: boolean } = {}) => {
    const at = h.now()
    const [c] = await h.sql<{ id: number }>('insert into courses (title, is_assigned_to_all, created_at, updated_at) values (?, ?, ?, ?) returning id', [
      title,
      o.toAll ?? false,
      at,
      at,
    ])
    const [m] = await h.sql<{ id: number }>(
      `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, processing_error, created_at, updated_at)
       values (?, 'Handbook', 1, 'handbook.pdf', 'application/pdf', 0, false, 'pending', 'ready', null, ?, ?) returning id`,
      [c!.id, at, at],
    )
    return { id: Number(c!.id), moduleId: Number(m!.id), title }
  }

  /** Completes the course's module (and so the course) as the learner does: opened, read long enough, marked complete. */
  const completeCourse = async (p: Person, c: { id: number; moduleId: number }) => {
    const opened = await h.call('PUT', `/modules/${c.moduleId}/progress`, { token: p.token, body: { progress: 40, courseId: c.id } })
    if (opened.status !== 200) throw new Error(`progress: ${opened.status} ${JSON.stringify(opened.body)}`)
    h.advance(200_000)
    const done = await h.call('PUT', `/modules/${c.moduleId}/complete`, { token: p.token, body: { courseId: c.id, trigger: 'manual' } })
    if (done.status !== 200 || !done.body.course_completed) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`)
    return done.body
  }

  /** An exam (final, one attempt per call), made by `admin`; assigned to nobody unless told. */
  const exam = async (admin: Person, name = 'Lockout/Tagout Check', o: { toAll?: boolean } = {}): Promise<Exam> => {
    const res = await h.call('POST', '/exams', { token: admin.token, body: examInput({ name, is_assigned_to_all: o.toAll ?? false, exam_type: 'practice' }) })
    if (res.status !== 201) throw new Error(`exam: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body as Exam
  }

  /** Takes the exam and submits every answer right (`pass`) or wrong. */
  const takeExam = async (p: Person, e: Exam, pass: boolean) => {
    const started = await h.call('POST', `/exams/${e.id}/attempts`, { token: p.token })
    if (started.status !== 201) throw new Error(`attempt: ${started.status} ${JSON.stringify(started.body)}`)
    const attempt = started.body as StartAttemptResponse
    const answers = pass ? correctAnswersAsShown(e, attempt) : attempt.questions.map(() => -1)
    const res = await h.call('POST', `/exams/${e.id}/submit`, { token: p.token, body: { attemptId: attempt.attemptId, answers, questionIds: attempt.questions.map((q) => q.id) } })
    if (res.status !== 200 || res.body.passed !== pass) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }

  /** The company's today, and a day from it. */
  const today = () => h.ctx.today()
  const day = (n: number) => addDays(today(), n)

  /** A rule body: a course due 30 days after assignment to everyone, with `over` replacing fields. */
  const ruleBody = (item: { kind: 'course' | 'exam'; id: number }, over: Partial<AssignmentRuleInput> = {}): AssignmentRuleInput => ({
    item_kind: item.kind,
    item_id: item.id,
    audience: { kind: 'everyone' },
    due: { kind: 'relative', days: 30, from: 'assignment' },
    ...over,
  })

  /** The stored row of a person on a rule (dates as text). */
  const row = async (ruleId: number, userId: string) => {
    const [r] = await h.sql(
      `select assigned_on::text, due_on::text, opens_on::text, completed_on::text, next_due_on::text, next_opens_on::text, cycle, exempt_reason,
              removed_at is not null as removed, version
         from assignment_people where rule_id = ? and user_id = ?`,
      [ruleId, userId],
    )
    return r
  }

  const completions = (ruleId: number, userId: string) =>
    h.sql('select cycle, due_on::text, completed_on::text, on_time from assignment_completions where rule_id = ? and user_id = ? order by cycle', [ruleId, userId])

  /** An admin's new rule (POST /admin/assignment-rules), as the API answers it; anything but 201 fails loudly. */
  const createRule = async (admin: Person, body: unknown) => {
    const res = await h.call('POST', '/admin/assignment-rules', { token: admin.token, body })
    if (res.status !== 201) throw new Error(`rule: ${res.status} ${JSON.stringify(res.body)}`)
    return AssignmentRule.parse(res.body)
  }

  return { person, course, completeCourse, exam, takeExam, today, day, ruleBody, row, completions, createRule }
}
