import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { focusedControl, launchBrowser, tabTo, watchErrors } from './browser.ts'

const baseURL = inject('baseURL')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function signedIn(email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage()
  page.setDefaultTimeout(15_000)
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  return page
}

const examName = `Ladder Safety ${Date.now()}`

describe('exams journey', () => {
  it('an admin builds a final exam through the form, seeing its validation, and assigns it', async () => {
    const page = await signedIn('admin@example.com', 'Admin123!')
    const errors = watchErrors(page)
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Exams' }).click()
    await page.getByRole('button', { name: 'Add New Exam' }).click()
    const form = page.locator('form')
    await form.getByLabel('Exam Name').fill(examName)
    await form.getByLabel('Questions per Attempt').fill('2')
    await form.getByLabel('Exam Type').selectOption('final')
    await form.getByLabel('Max Attempts').fill('1')
    for (const c of ['Ladders', 'Tools']) {
      await form.getByLabel('New Subject Category').fill(c)
      await form.getByRole('button', { name: 'Add Category' }).click()
    }
    // Submitting with an empty pool is refused with the spec's message.
    await form.getByRole('button', { name: 'Create Exam' }).click()
    await form.getByText('Not enough questions in the pool').first().waitFor()

    await form.getByRole('button', { name: 'Add Question' }).click()
    const q1 = form.locator('ol > li').nth(0)
    await q1.getByLabel('Question Text').fill('How far should a ladder extend above the landing?')
    await q1.getByLabel('Subject Category').selectOption('Ladders')
    await q1.getByLabel('Option 1').fill('One foot')
    await q1.getByLabel('Option 2').fill('Three feet')
    await q1.getByLabel('Choice 2 is correct').check()

    await form.getByRole('button', { name: 'Add Question' }).click()
    const q2 = form.locator('ol > li').nth(1)
    await q2.getByLabel('Question Text').fill('Which tools need a GFCI outlet?')
    await q2.getByLabel('Question Type').selectOption('multi_select')
    await q2.getByLabel('Subject Category').selectOption('Tools')
    await q2.getByRole('button', { name: 'Add Option' }).click()
    await q2.getByLabel('Option 1').fill('Corded drill')
    await q2.getByLabel('Option 2').fill('Hand saw')
    await q2.getByLabel('Option 3').fill('Corded grinder')
    await q2.getByLabel('Choice 1 is correct').check()
    await q2.getByLabel('Choice 3 is correct').check()

    await form.getByRole('button', { name: 'Create Exam' }).click()
    const row = page.getByRole('row').filter({ hasText: examName })
    await row.waitFor()
    await row.getByRole('button', { name: 'Assign' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Assign' }).click()
    await dialog.getByText('Please select at least one user').waitFor()
    await dialog.getByLabel('Search users').fill('tricities')
    await dialog.getByRole('checkbox').first().check()
    await dialog.getByRole('button', { name: 'Assign' }).click()
    await dialog.waitFor({ state: 'hidden' })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a technician takes it with review marks and navigation, and sees results per category', async () => {
    const page = await signedIn('tech.tricities@example.com', 'Tech1234!')
    const errors = watchErrors(page)
    await page.waitForURL('**/user-dashboard')
    const card = page.getByRole('listitem').filter({ hasText: examName }).last()
    await card.getByRole('button', { name: 'Start Exam' }).click()
    await page.waitForURL('**/exam/*')
    await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    await page.getByRole('button', { name: 'Start Exam' }).click()
    await page.getByRole('timer').waitFor({ state: 'attached' })

    const current = page.getByRole('region', { name: 'Current question' })
    const answer = async () => {
      const heading = await current.getByRole('heading').first().textContent()
      if (heading?.includes('ladder')) await current.getByLabel('Three feet').check()
      else {
        await current.getByLabel('Corded drill').check()
        await current.getByLabel('Corded grinder').check()
      }
    }
    await answer()
    await current.getByRole('button', { name: 'Mark for Review' }).click()
    await page.getByRole('navigation').getByRole('button', { name: 'Question 1' }).waitFor()
    await current.getByRole('button', { name: 'Next' }).click()
    await answer()
    await current.getByRole('button', { name: 'Previous' }).click()
    await current.getByText('Question 1 of 2').waitFor()
    await page.getByRole('navigation').getByRole('button', { name: 'Question 1' }).click()
    await current.getByRole('button', { name: 'Next' }).click()
    await current.getByRole('button', { name: 'Submit Exam' }).click()

    await page.waitForURL('**/exam-results')
    await page.getByText('PASSED').first().waitFor()
    await page.getByText('100%').first().waitFor()
    await page.getByText('Ladders').first().waitFor()
    await page.getByText('Tools').first().waitFor()
    expect(errors).toEqual([])
    await page.getByRole('button', { name: 'Return to Dashboard' }).or(page.getByRole('link', { name: 'Return to Dashboard' })).click()
    await page.waitForURL('**/user-dashboard')

    // A final exam with one attempt refuses a second start with a clear message.
    await page.goto(`/user-dashboard`)
    const again = page.getByRole('listitem').filter({ hasText: examName }).last()
    const start = again.getByRole('button', { name: 'Start Exam' })
    if (await start.isEnabled()) {
      await start.click()
      await page.getByRole('heading', { level: 1, name: examName }).waitFor()
      await page.getByRole('button', { name: 'Start Exam' }).click()
      await page.getByText(/used all 1 attempt/i).first().waitFor()
    } else {
      await again.getByText(/1 of 1|attempts? used|no attempts left/i).first().waitFor()
    }
    await page.context().close()
  })

  it('keyboard only: Add New Exam opens on Exam Name; adding goes to the new field, removing a question, choice or category keeps focus in the list and is announced', async () => {
    const page = await signedIn('admin@example.com', 'Admin123!')
    const errors = watchErrors(page)
    await page.waitForURL('**/admin-dashboard')
    const focus = () => focusedControl(page)
    await tabTo(page, page.getByRole('button', { name: 'Add New Exam' }), { max: 40 })
    await page.keyboard.press('Enter')
    const form = page.getByRole('form', { name: 'Add New Exam' })
    await expect.poll(focus).toBe('textbox "Exam Name"')
    const press = async (key: string, says: string) => {
      await page.keyboard.press(key)
      await form.getByRole('status').filter({ hasText: says }).waitFor()
      return focus()
    }

    await tabTo(page, form.getByLabel('New Subject Category'))
    for (const c of ['Ladders', 'Tools']) {
      await page.keyboard.type(c)
      expect(await press('Enter', `Category ${c} added.`)).toBe('textbox "New Subject Category"')
    }
    await tabTo(page, form.getByRole('button', { name: 'Remove category Ladders' }), { back: true })
    expect(await press('Enter', 'Category Ladders removed.')).toBe('button "Remove category Tools"')
    expect(await press('Enter', 'Category Tools removed.')).toBe('textbox "New Subject Category"')

    const addQuestion = form.getByRole('button', { name: 'Add Question' })
    await tabTo(page, addQuestion)
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('textbox "Question Text"')
    await page.keyboard.type('First')
    await tabTo(page, addQuestion)
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('textbox "Question Text"')
    await page.keyboard.type('Second')
    const second = form.getByRole('group', { name: 'Question 2' })
    await tabTo(page, second.getByRole('button', { name: 'Add Option' }))
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('textbox "Option 3"')
    // Three choices: removing the second leaves two, whose Remove buttons are disabled; focus goes to the text of the one in its place.
    await tabTo(page, second.getByRole('button', { name: 'Remove choice 2' }), { back: true })
    expect(await press('Enter', 'Choice 2 of question 2 removed; 2 choices left.')).toBe('textbox "Option 2"')

    await tabTo(page, form.getByRole('button', { name: 'Remove Question 1' }), { back: true })
    expect(await press('Enter', 'Question 1 removed; 1 question left.')).toBe('button "Remove Question 1"')
    expect(await form.getByLabel('Question Text').inputValue()).toBe('Second')
    expect(await press('Enter', 'Question 1 removed; no questions left.')).toBe('button "Add Question"')

    await tabTo(page, form.getByRole('button', { name: 'Cancel' }))
    await page.keyboard.press('Enter')
    await form.waitFor({ state: 'detached' })
    await expect.poll(focus).toBe('button "Add New Exam"')
    expect(errors).toEqual([])
    await page.context().close()
  })
})
