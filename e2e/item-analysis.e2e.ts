import { describe, expect, inject, it } from 'vitest'
import type { AttemptQuestion, Exam, ExamSubmissionResult, StartAttemptResponse } from '@portal/contracts'
import { apiLogIn, axeSerious, logIn, openPage, suiteBrowser, watchErrors } from './browser.ts'

const baseURL = inject('baseURL')
const browser = suiteBrowser()

const call = async <T>(method: string, path: string, auth: { authorization: string }, body?: unknown): Promise<T> => {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...auth },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}

const examName = `Scaffold Checks ${Date.now()}`

/** Questions: everyone gets the first right (too easy), the learners split on the others. */
const questions = [
  { question_type: 'multiple_choice', question_text: 'Who may erect a scaffold?', options: ['A competent person', 'Anyone on site', 'The client'], correct_answer: 0 },
  { question_type: 'multiple_choice', question_text: 'Minimum guardrail height?', options: ['38 in', '42 in', '30 in'], correct_answer: 1 },
  { question_type: 'multiple_choice', question_text: 'Planks overlap at least?', options: ['12 in', '6 in', '2 in'], correct_answer: 0 },
].map((q) => ({ ...q, subject_category: null }))

/** Takes the exam as `email`, answering question i with the option text `picks[i]` (the options come shuffled). */
async function take(examId: number, email: string, picks: string[]) {
  const { auth } = await apiLogIn(baseURL, email, 'Tech1234!')
  const attempt = await call<StartAttemptResponse>('POST', `/exams/${examId}/attempts`, auth)
  const answers = attempt.questions.map((q: AttemptQuestion) => q.options.indexOf(picks[questions.findIndex((p) => p.question_text === q.question_text)] ?? ''))
  const body = { attemptId: attempt.attemptId, answers, questionIds: attempt.questions.map((q) => q.id) }
  const result = await call<ExamSubmissionResult>('POST', `/exams/${examId}/submit`, auth, body)
  return { auth, attempt, body, result }
}

describe('item analysis journey', () => {
  it('an admin opens an exam’s item analysis, sees its figures, charts and a flagged question, exports it, and retires the question: the next attempt does not offer it, an old result still shows it', async () => {
    const admin = await apiLogIn(baseURL, 'admin@example.com', 'Admin123!')
    const exam = await call<Exam>('POST', '/exams', admin.auth, {
      name: examName,
      time_limit: 10,
      pass_score: 70,
      total_questions: 3,
      subject_categories: [],
      exam_type: 'final',
      max_attempts: 3,
      is_assigned_to_all: true,
      questions,
    })
    const first = await take(exam.id, 'tech.portland@example.com', ['A competent person', '42 in', '12 in'])
    await take(exam.id, 'tech.seattle@example.com', ['A competent person', '42 in', '6 in'])
    await take(exam.id, 'tech.anchorage@example.com', ['A competent person', '38 in', '6 in'])

    // A fourth question joins the pool (three are still drawn), so one can be retired.
    const fourth = {
      question_type: 'multiple_choice',
      question_text: 'Inspect a scaffold when?',
      options: ['Before each shift', 'Once a year'],
      correct_answer: 0,
      subject_category: null,
    }
    const { id: _id, assigned_user_ids: _assigned, created_at: _created, retired_questions: _retired, open_attempt: _open, ...settings } = exam
    await call('PUT', `/exams/${exam.id}`, admin.auth, { ...settings, questions: [...exam.questions, fourth] })

    const page = await openPage(browser(), baseURL)
    const errors = watchErrors(page)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Exams' }).click()
    const row = page.getByRole('row').filter({ hasText: examName })
    await row.getByRole('button', { name: 'Item Analysis' }).click()
    const dialog = page.getByRole('dialog', { name: `Item Analysis: ${examName}` })
    const figures = dialog.getByRole('definition')
    await dialog.getByText('Flagged questions').waitFor()
    expect(await dialog.locator('dl').innerText()).toMatch(/Attempts\s+3\b/)
    // Scores 100, 67 and 33 %: mean 66.7 %.
    expect(await dialog.locator('dl').innerText()).toMatch(/Mean score\s+66\.7%/)
    expect(await figures.count()).toBeGreaterThan(4)
    // The charts are images with their figures in words.
    const histogram = dialog.getByRole('img', { name: 'Score histogram' })
    expect(await histogram.locator('desc').textContent()).toMatch(/^Score distribution: .*60 to 70%: 1 attempt;/)
    expect(await dialog.getByRole('img', { name: 'Facility and discrimination' }).locator('desc').textContent()).toMatch(
      /^Facility and discrimination per question: Q1 facility 100%/,
    )
    // The question everyone got right is flagged, with its reason, in the table.
    const flagged = dialog.getByRole('row').filter({ hasText: 'Who may erect a scaffold?' })
    await flagged.getByText('Too easy: 100% answered correctly (above 90%)').waitFor()
    expect(await flagged.innerText()).toContain('Non-functioning distractor: "Anyone on site" chosen by 0%')
    expect(await dialog.getByRole('columnheader', { name: 'Facility' }).count()).toBe(1)
    expect(await axeSerious(page, '.pk-dialog[open]')).toEqual([])

    // Export to Excel saves an .xlsx.
    const download = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Export to Excel' }).click()
    expect((await download).suggestedFilename()).toMatch(/^item-analysis-scaffold-checks-\d+-final\.xlsx$/)

    // Retire the flagged question: it stays in the analysis as retired, ...
    await flagged.getByRole('button', { name: 'Retire Q1' }).click()
    const retired = dialog.getByRole('row').filter({ hasText: 'Who may erect a scaffold? (retired)' })
    await retired.getByRole('button', { name: /^Restore/ }).waitFor()
    // ... the next attempt does not offer it, and the result of an attempt taken before still shows it.
    const next = await take(exam.id, 'tech.portland@example.com', ['A competent person', '42 in', '12 in'])
    expect(next.attempt.questions.map((q) => q.question_text).sort()).toEqual(['Inspect a scaffold when?', 'Minimum guardrail height?', 'Planks overlap at least?'])
    const old = await call<ExamSubmissionResult>('POST', `/exams/${exam.id}/submit`, first.auth, first.body)
    expect(old.question_results.map((r) => r.question_text)).toContain('Who may erect a scaffold?')
    expect(old).toEqual(first.result)

    // Practice attempts: there are none.
    await dialog.getByLabel('Attempts', { exact: true }).selectOption('practice')
    await dialog.getByText('No attempts yet').waitFor()
    // An end before the start is refused on the field.
    await dialog.getByLabel('Attempts', { exact: true }).selectOption('final')
    await dialog.getByLabel('From', { exact: true }).fill('2025-05-10')
    await dialog.getByLabel('To', { exact: true }).fill('2025-05-09')
    await dialog.getByText('The end date must not be before the start date').waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })
})
