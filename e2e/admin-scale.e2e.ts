import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { Exam } from '@portal/contracts'
import { axeSerious, focusedControl, logIn, openPage, suiteBrowser, tabTo, watchErrors } from './browser.ts'
import { xlsx } from './xlsx.ts'

// Issue 15 item 6: the admin side with more than a handful of exams, questions and users.
const baseURL = inject('baseURL')
const run = Date.now()
const browser = suiteBrowser()
let admin: string

const api = async <T = unknown>(method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(admin ? { Authorization: `Bearer ${admin}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as T }
}
const question = (i: number) => ({
  question_type: 'multiple_choice',
  question_text: `Pool question ${i}`,
  options: ['Right', 'Wrong'],
  correct_answer: 0,
  category_weight: 1,
})
const examBody = (name: string, questions: number) => ({
  name,
  time_limit: 30,
  pass_score: 70,
  total_questions: 1,
  exam_type: 'practice',
  is_assigned_to_all: false,
  subject_categories: [],
  questions: Array.from({ length: questions }, (_, i) => question(i + 1)),
})

beforeAll(async () => {
  admin = (await api<{ token: string }>('POST', '/auth/login', { email: 'admin@example.com', password: 'Admin123!' })).body.token
})

async function asAdmin(): Promise<Page> {
  const page = await openPage(browser(), baseURL)
  await logIn(page, 'admin@example.com', 'Admin123!')
  await page.waitForURL('**/admin-dashboard')
  return page
}

describe('admin at scale', () => {
  it('a 10-question exam is a short form: questions collapse, move with focus kept, and come in from CSV and Excel with per-row errors', async () => {
    const name = `Pool exam ${run}`
    const created = await api<Exam>('POST', '/exams', examBody(name, 10))
    expect(created.status).toBe(201)
    const page = await asAdmin()
    const errors = watchErrors(page)
    const focus = () => focusedControl(page)
    await page.getByLabel('Search exams').fill(name)
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Edit' }).click()
    const form = page.getByRole('form', { name: 'Edit Exam' })
    await form.getByRole('button', { name: 'Question 10', exact: true }).waitFor()
    // Each stored question is one line with its summary (the form was ~7,000 px with every question open).
    expect(await form.evaluate((f) => f.getBoundingClientRect().height)).toBeLessThan(2500)
    expect(await form.getByRole('button', { name: 'Question 1', exact: true }).getAttribute('aria-expanded')).toBe('false')
    await form.getByText('Pool question 2 · Multiple choice · 2 choices').waitFor()
    expect(await axeSerious(page)).toEqual([])
    await form.getByRole('button', { name: 'Question 2', exact: true }).click()
    await form.getByRole('group', { name: 'Question 2' }).getByLabel('Question Text').waitFor()
    expect(await axeSerious(page)).toEqual([])

    // Reordering by keyboard: the button pressed keeps focus while the question can go on, else its other move button.
    const say = (text: string) => form.getByRole('status').filter({ hasText: text }).waitFor()
    await tabTo(page, form.getByRole('button', { name: 'Move down Question 1', exact: true }), { back: true })
    await page.keyboard.press('Enter')
    await say('Question 1 moved to position 2 of 10.')
    expect(await focus()).toBe('button "Move down Question 2"')
    await tabTo(page, form.getByRole('button', { name: 'Move down Question 9', exact: true }), { max: 60 })
    await page.keyboard.press('Enter')
    await say('Question 9 moved to position 10 of 10.')
    expect(await focus()).toBe('button "Move up Question 10"')

    // CSV: a preview of every row with its own errors; only the good rows come in.
    await form.getByRole('button', { name: 'Import Questions' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Questions' })
    const csv = [
      'Question,Option 1,Option 2,Option 3,Correct,Category,Weight',
      '"Which, with a comma, is right?",Right,Wrong,,1,Imported,2',
      ',Right,Wrong,,1,,',
      'Out of range,Right,Wrong,,4,,',
    ].join('\n')
    await dialog.getByLabel('Question File').setInputFiles({ name: 'questions.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await dialog.getByText('1 of 3 rows ready to import; 2 with errors are left out. New categories: Imported.').waitFor()
    await dialog.getByRole('row').filter({ hasText: 'Question text is required' }).getByRole('rowheader', { name: '3' }).waitFor()
    await dialog.getByRole('row').filter({ hasText: 'Correct answer 4 is not one of the 2 options' }).getByRole('rowheader', { name: '4' }).waitFor()
    expect(await axeSerious(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Import 1 Question' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await say('1 question imported; the pool has 11. 1 category added.')
    await expect.poll(focus).toBe('button "Import Questions"')

    // Excel (.xlsx): read in the browser the same way.
    await page.keyboard.press('Enter')
    await dialog.getByLabel('Question File').setInputFiles({
      name: 'questions.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: xlsx([
        ['Question', 'Options', 'Correct', 'Type'],
        ['From Excel, one answer?', 'Yes|No', 1, ''],
        ['From Excel, two answers?', 'A|B|C', '1, 3', 'multi_select'],
      ]),
    })
    await dialog.getByText('2 of 2 rows ready to import.').waitFor()
    await dialog.getByRole('button', { name: 'Import 2 Questions' }).click()
    await say('2 questions imported; the pool has 13.')

    await form.getByRole('button', { name: 'Update Exam' }).click()
    await page.getByRole('status').filter({ hasText: 'Exam updated.' }).waitFor()
    const saved = (await api<Exam>('GET', `/exams/${created.body.id}`)).body
    expect(saved.questions.map((q: { question_text: string }) => q.question_text)).toEqual([
      'Pool question 2',
      'Pool question 1',
      ...[3, 4, 5, 6, 7, 8, 10, 9].map((i) => `Pool question ${i}`),
      'Which, with a comma, is right?',
      'From Excel, one answer?',
      'From Excel, two answers?',
    ])
    expect(saved.questions.at(-1)).toMatchObject({ question_type: 'multi_select', correct_answer: [0, 2] })
    expect(saved.subject_categories).toEqual(['Imported'])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('admin tables search, sort and page; the Users table shows branch and department', async () => {
    const prefix = `Paging ${run}`
    for (let i = 1; i <= 26; i++) expect((await api('POST', '/exams', examBody(`${prefix} ${String(i).padStart(2, '0')}`, 1))).status).toBe(201)
    const page = await asAdmin()
    const errors = watchErrors(page)
    const summary = page
      .getByRole('tabpanel')
      .getByRole('status')
      .filter({ hasText: /^Showing|^No exams/ })
    await summary.filter({ hasText: /^Showing 1–25 of \d+ exams$/ }).waitFor()
    await page.getByRole('navigation', { name: 'Exams pages' }).getByRole('button', { name: 'Next Page' }).click()
    await summary.filter({ hasText: /^Showing 26–\d+ of \d+ exams$/ }).waitFor()
    await page.getByLabel('Search exams').fill(prefix)
    await summary.filter({ hasText: `Showing 1–25 of 26 exams matching “${prefix}”` }).waitFor()
    const nameHeader = page.getByRole('columnheader', { name: 'Name' })
    await nameHeader.getByRole('button').click()
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending')
    await expect.poll(() => page.getByRole('rowheader').first().textContent()).toBe(`${prefix} 01`)
    await nameHeader.getByRole('button').click()
    expect(await nameHeader.getAttribute('aria-sort')).toBe('descending')
    await expect.poll(() => page.getByRole('rowheader').first().textContent()).toBe(`${prefix} 26`)
    expect(await axeSerious(page)).toEqual([])

    await page.getByRole('tab', { name: 'Users' }).click()
    for (const column of ['Name', 'Email', 'Role', 'Branch', 'Department', 'User Group']) await page.getByRole('columnheader', { name: column }).waitFor()
    // The address, not the branch: other journeys on this portal register Seattle technicians.
    await page.getByLabel('Search users').fill('tech.seattle@example.com')
    const row = page.getByRole('row').filter({ hasText: 'tech.seattle@example.com' })
    await row.getByRole('cell', { name: 'Seattle', exact: true }).waitFor()
    await row.getByRole('cell', { name: 'Electricians', exact: true }).waitFor()
    expect(await page.getByRole('row').count()).toBe(2)
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('the Assign dialog filters by branch, department and group, marks who is assigned and says when everyone is', async () => {
    const name = `Assign me ${run}`
    expect((await api('POST', '/exams', examBody(name, 1))).status).toBe(201)
    const page = await asAdmin()
    await page.getByLabel('Search exams').fill(name)
    const row = page.getByRole('row').filter({ hasText: name })
    await row.getByRole('button', { name: 'Assign', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: `Assign Exam: ${name}` })
    await dialog.getByLabel('Branch').selectOption('Portland')
    await dialog.getByLabel('Department').selectOption('Service')
    const boxes = dialog.getByRole('checkbox')
    await expect.poll(() => boxes.count()).toBe(2) // the Portland technician and the Portland manager
    await dialog.getByLabel('User Group').waitFor()
    expect(await axeSerious(page)).toEqual([])
    await dialog.getByRole('checkbox', { name: /Pat Portland/ }).check()
    await dialog.getByText('1 selected').waitFor()
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    await row.getByRole('cell', { name: '1 user' }).waitFor()
    await row.getByRole('button', { name: 'Assign', exact: true }).click()
    await dialog.getByRole('listitem').or(dialog.locator('label')).filter({ hasText: 'Pat Portland' }).getByText('Assigned').waitFor()
    await dialog.getByText('1 selected · 1 already assigned').waitFor()
    await dialog.getByRole('checkbox', { name: /Pat Portland/ }).uncheck()
    await dialog.getByText('0 selected · 1 to be unassigned').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // The demo final exam is assigned to all: the dialog says so instead of "0 selected".
    await page.getByLabel('Search exams').fill('Lockout/Tagout')
    await page.getByRole('row').filter({ hasText: 'Lockout/Tagout Certification' }).getByRole('button', { name: 'Assign', exact: true }).click()
    const all = page.getByRole('dialog', { name: 'Assign Exam: Lockout/Tagout Certification' })
    await all.getByText('This exam is assigned to all users').waitFor()
    await all.getByText('Assigned to all users · 0 selected').waitFor()
    expect(await axeSerious(page)).toEqual([])
    await page.context().close()
  })

  it('the course upload form shows real file sizes and a picker drawn like the other buttons, reached by keyboard', async () => {
    const page = await asAdmin()
    await page.getByRole('tab', { name: 'Courses' }).click()
    await page.getByRole('button', { name: 'Upload New Course' }).click()
    const form = page.getByRole('form', { name: 'Upload New Course' })
    const picker = form.getByLabel('Module Files')
    await tabTo(page, picker)
    expect(await focusedControl(page)).toBe('button "Module Files"')
    const drawn = form.locator('label[for="course-module-files"]')
    expect(await drawn.textContent()).toBe('Choose Files…')
    expect(await drawn.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')
    await picker.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from(`%PDF-1.4\n${'x'.repeat(3000)}\n%%EOF\n`) })
    await form.getByText('notes.pdf · 2.9 KB').waitFor()
    expect(await axeSerious(page)).toEqual([])
    await form.getByRole('button', { name: 'Cancel' }).click()
    await page.context().close()
  })
})
