import { ASSIGNMENT_MESSAGES, NOTIFY_MESSAGES } from '@portal/contracts'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apiLogIn, axeSerious, descriptionOf, focusedControl, logIn, openPage, suiteBrowser, tabTo, waitForMail, watchErrors } from './browser.ts'

// Issue 30 items 2 and 3 in the admin dashboard: a form refused marks each field in error, its
// message tied to it, and sends focus to the first, by keyboard alone; a picker of people shows
// each one's e-mail beside the name, so one of two people of the same name can be chosen.
const baseURL = inject('baseURL')
const browser = suiteBrowser()
const run = Date.now().toString(36)
const NAME = `Sue Seattle ${run}`

/** A registered and verified user named `name`. */
async function register(name: string, tag: string) {
  const email = `sue.${tag}.${run}@example.com`
  const registered = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password: 'Same1234!' }),
  })
  expect(registered.status).toBe(201)
  const { userId } = (await registered.json()) as { userId: string }
  const [, code] = await waitForMail(baseURL, email, /\b(\d{6})\b/)
  const verified = await fetch(`${baseURL}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, verificationCode: code }),
  })
  expect(verified.status).toBe(200)
  await apiLogIn(baseURL, email, 'Same1234!')
  return { id: userId, email }
}

/** The admin dashboard as the demo admin, on `tab`. */
async function openTab(tab: string) {
  const page = await openPage(browser(), baseURL)
  const errors = watchErrors(page)
  await logIn(page, 'admin@example.com', 'Admin123!')
  await page.waitForURL('**/admin-dashboard')
  await page.getByRole('tab', { name: tab }).click()
  return { page, errors }
}

const isFocused = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true }).evaluate((el) => el === document.activeElement)

let first: { id: string; email: string }
let second: { id: string; email: string }
beforeAll(async () => {
  first = await register(NAME, 'one')
  second = await register(NAME, 'two')
}, 120_000)

describe('admin forms say what is wrong where it is wrong', () => {
  it('Add admin email refused by keyboard: the e-mail and the types marked, focus on the first, its message read', async () => {
    const { page, errors } = await openTab('Email Settings')
    await page.getByRole('button', { name: 'Manage Global Admin Emails' }).click()
    const dialog = page.getByRole('dialog', { name: 'Email Notification Management' })
    const form = dialog.getByRole('form', { name: 'Add admin email' })
    const email = form.getByRole('textbox', { name: 'Email', exact: true })
    await tabTo(page, email)
    await page.keyboard.type('not-an-address')
    // Both notification types unticked with Space, then Add Email with Enter.
    for (const type of ['Exam Completion', 'Course Completion']) {
      await tabTo(page, form.getByRole('checkbox', { name: type }))
      await page.keyboard.press('Space')
    }
    await tabTo(page, form.getByRole('button', { name: 'Add Email' }))
    await page.keyboard.press('Enter')

    await expect.poll(() => isFocused(page, 'Email')).toBe(true)
    expect(await focusedControl(page)).toMatch(/^textbox "Email"/)
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(email)).toBe(NOTIFY_MESSAGES.emailInvalid)
    const exam = form.getByRole('checkbox', { name: 'Exam Completion' })
    expect(await exam.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(exam)).toBe(NOTIFY_MESSAGES.typesRequired)

    // The address fixed, Add Email again: focus goes to the types, still wrong; the e-mail is no longer marked.
    await page.keyboard.press('Control+A')
    await page.keyboard.type(`lead.${run}@example.com`)
    await tabTo(page, form.getByRole('button', { name: 'Add Email' }))
    await page.keyboard.press('Enter')
    await expect.poll(() => exam.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await email.getAttribute('aria-invalid')).toBe(null)
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('the assignment rule form refused by keyboard, then one of two people of the same name chosen by e-mail', async () => {
    const { page, errors } = await openTab('Assignments')
    await page.getByRole('button', { name: 'New Assignment Rule' }).click()
    const form = page.getByRole('dialog', { name: 'New Assignment Rule' })
    const review = form.getByRole('button', { name: 'Review changes' })
    await tabTo(page, review, { max: 60 })
    await page.keyboard.press('Enter')

    // Nothing chosen: the course is the first field in error and takes focus; the users are marked too.
    const course = form.getByRole('combobox', { name: 'Course', exact: true })
    await expect.poll(() => course.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await course.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(course)).not.toBe('')
    const search = form.getByRole('searchbox', { name: 'Search users' })
    expect(await search.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(search)).toBe(ASSIGNMENT_MESSAGES.usersRequired)
    expect(await axeSerious(page)).toEqual([])

    // A course chosen with the arrow key, Review again: focus goes to the users' search, its message read.
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => course.inputValue()).not.toBe('')
    await tabTo(page, review, { max: 60 })
    await page.keyboard.press('Enter')
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await descriptionOf(search)).toBe(ASSIGNMENT_MESSAGES.usersRequired)

    // Searched by the shared name, both are listed, each with their e-mail: the second is ticked with Space.
    await page.keyboard.type(NAME)
    const list = form.getByRole('group', { name: 'Users to assign' })
    await expect.poll(() => list.getByRole('checkbox').count()).toBe(2)
    const names = await list.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.closest('label')?.textContent ?? ''))
    expect(names.sort()).toEqual([`${NAME} (${first.email})`, `${NAME} (${second.email})`].sort())
    const chosen = list.getByRole('checkbox', { name: `${NAME} (${second.email})` })
    await tabTo(page, chosen)
    await page.keyboard.press('Space')
    expect(await chosen.isChecked()).toBe(true)
    expect(await list.getByRole('checkbox', { name: `${NAME} (${first.email})` }).isChecked()).toBe(false)
    // The e-mail narrows the list to one.
    await search.fill(first.email)
    await expect.poll(() => list.getByRole('checkbox').count()).toBe(1)
    await search.fill('')

    // The dry run adds the one chosen, and only them.
    await tabTo(page, review, { max: 60 })
    await page.keyboard.press('Enter')
    const dryRun = page.getByRole('dialog', { name: 'Review changes' })
    await dryRun.getByRole('table').waitFor()
    await expect.poll(() => dryRun.getByRole('row').filter({ hasText: second.email }).count()).toBe(1)
    expect(await dryRun.getByRole('row').filter({ hasText: first.email }).count()).toBe(0)
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
