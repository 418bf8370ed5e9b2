import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { axeSerious, focusedControl, logIn, openPage, suiteBrowser, tabTo, watchErrors } from './browser.ts'

const baseURL = inject('baseURL')
const browser = suiteBrowser()

async function signedIn(email: string, password: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openPage(browser(), baseURL, viewport)
  await logIn(page, email, password)
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
    // Each attempt shows the options in an order of its own unless the admin unticks it (issue 27).
    expect(await form.getByLabel('Shuffle answer options in each attempt').isChecked()).toBe(true)
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
    await q2.getByLabel("Keep option order (e.g. 'All of the above')").check()

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

  it('a technician takes it with the palette, is warned on every way out, resumes it with the time left, reviews and submits', async () => {
    // A phone-sized window: the question and the palette scroll under the exam's bar.
    const page = await signedIn('tech.tricities@example.com', 'Tech1234!', { width: 390, height: 700 })
    const errors = watchErrors(page)
    const noSerious = async (state: string) => expect(await axeSerious(page), state).toEqual([])
    await page.waitForURL('**/user-dashboard')
    const openExam = async (button = 'Start Exam') => {
      const card = page.getByRole('listitem').filter({ hasText: examName }).last()
      await card.getByRole('button', { name: button }).click()
      await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    }
    await openExam()
    await noSerious('exam intro')
    await page.getByRole('button', { name: 'Start Exam' }).click()
    await page.getByRole('timer').waitFor({ state: 'attached' })
    // Focus follows the learner onto the first question.
    await expect.poll(() => focusedControl(page)).toMatch(/^heading "Question 1 of 2/)
    await noSerious('question 1')

    const current = page.getByRole('region', { name: 'Current question' })
    const palette = page.getByRole('navigation', { name: 'Questions' })
    const answer = async () => {
      const heading = await current.getByRole('heading').first().textContent()
      if (heading?.includes('ladder')) await current.getByLabel('Three feet').check()
      else {
        // This question keeps its option order; the other one's is drawn per attempt.
        expect(await current.locator('label').allTextContents()).toEqual(['Corded drill', 'Hand saw', 'Corded grinder'])
        await current.getByLabel('Corded drill').check()
        await current.getByLabel('Corded grinder').check()
      }
    }
    await answer()
    await current.getByRole('button', { name: 'Mark for Review' }).click()
    await palette.getByRole('button', { name: 'Question 1, answered, marked for review', exact: true }).waitFor()
    await palette.getByRole('button', { name: 'Question 2, unanswered', exact: true }).waitFor()

    // The timer stays in view while the page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    const clock = await page.getByText('Time Remaining').boundingBox()
    expect(clock!.y).toBeGreaterThanOrEqual(0)
    expect(clock!.y).toBeLessThan(700)

    // Every way out warns and says what really happens; Continue Exam stays.
    const leaveDialog = page.getByRole('dialog')
    const warned = async (title: string) => {
      await leaveDialog.getByRole('heading', { name: title }).waitFor()
      expect(await leaveDialog.textContent()).toMatch(/stays open and its clock keeps running until/)
      await noSerious(`${title} dialog`)
      await leaveDialog.getByRole('button', { name: 'Continue Exam' }).click()
      await leaveDialog.waitFor({ state: 'hidden' })
      expect(page.url()).toMatch(/\/exam\/\d+$/)
    }
    await page.getByRole('link', { name: 'Learning Portal' }).click()
    await warned('Leave the Exam?')
    await page.goBack()
    await warned('Leave the Exam?')
    // On this phone Logout sits behind the header's Menu button.
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await warned('Log Out During the Exam?')
    await page.getByRole('button', { name: 'Exit', exact: true }).click()
    await warned('Exit Exam?')
    // Reload and tab close: the browser's own warning is asked for.
    expect(await page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(true)

    // Leaving for real keeps the attempt: the intro offers Resume with the time left, and the answers and marks are back.
    await page.goBack()
    await leaveDialog.getByRole('button', { name: 'Leave Exam' }).click()
    await page.waitForURL('**/user-dashboard')
    // The card says so too: this final exam's one attempt is not used up while it is under way.
    await page
      .getByRole('listitem')
      .filter({ hasText: examName })
      .last()
      .getByText(/Attempt under way: (59|60) minutes left/)
      .waitFor()
    await openExam('Resume Exam')
    await page.getByText('Attempt 1 is under way').waitFor()
    expect(await page.getByText(/Time left: \d\d:\d\d/).textContent()).toMatch(/Time left: (59|60):\d\d/)
    await noSerious('intro of an attempt under way')
    await page.getByRole('button', { name: 'Resume Exam' }).click()
    await palette.getByRole('button', { name: 'Question 1, answered, marked for review', exact: true }).waitFor()

    // Review before the submit: what is unanswered and marked, each a way back; the confirm step names it.
    await palette.getByRole('button', { name: 'Review and Submit' }).click()
    const review = page.getByRole('region', { name: 'Review Your Answers' })
    await expect.poll(() => focusedControl(page)).toBe('heading "Review Your Answers" [level=2]')
    await review.getByRole('heading', { name: 'Unanswered (1)' }).waitFor()
    await noSerious('review')
    await review.getByRole('button', { name: 'Submit Exam' }).click()
    await leaveDialog.getByRole('heading', { name: 'Submit Exam?' }).waitFor()
    expect(await leaveDialog.textContent()).toContain('1 of 2 questions is unanswered: question 2. Unanswered questions count as wrong.')
    expect(await leaveDialog.textContent()).toContain('This uses attempt 1 of 1.')
    await noSerious('submit confirmation')
    await leaveDialog.getByRole('button', { name: 'Keep Reviewing' }).click()
    await review.getByRole('button', { name: 'Go to question 2' }).click()
    await expect.poll(() => focusedControl(page)).toMatch(/^heading "Question 2 of 2/)
    await answer()
    await current.getByRole('button', { name: 'Review and Submit' }).click()
    await review.getByRole('heading', { name: 'Unanswered (0)' }).waitFor()
    await review.getByRole('button', { name: 'Submit Exam' }).click()
    expect(await leaveDialog.textContent()).toContain('All 2 questions are answered.')
    expect(await leaveDialog.textContent()).toContain('1 question is marked for review: question 1.')
    await leaveDialog.getByRole('button', { name: 'Submit Exam' }).click()

    await page.waitForURL('**/exam-results')
    await page.getByText('PASSED').first().waitFor()
    await page.getByText('100%').first().waitFor()
    await page.getByText('Ladders').first().waitFor()
    await page.getByText('Tools').first().waitFor()
    // The review lists each question's options as this learner saw them, their answers and the correct ones marked.
    const reviewed = (option: string) =>
      page
        .getByRole('list', { name: /^Options of question \d as you saw them$/ })
        .filter({ hasText: option })
        .getByRole('listitem')
        .allTextContents()
    expect(await reviewed('Hand saw')).toEqual(['Corded drillYour answerCorrect answer', 'Hand saw', 'Corded grinderYour answerCorrect answer'])
    expect((await reviewed('One foot')).sort()).toEqual(['One foot', 'Three feetYour answerCorrect answer'])
    await noSerious('results')
    expect(errors).toEqual([])
    await page
      .getByRole('button', { name: 'Return to Dashboard' })
      .or(page.getByRole('link', { name: 'Return to Dashboard' }))
      .click()
    await page.waitForURL('**/user-dashboard')

    // A final exam with one attempt refuses a second start with a clear message.
    await page.goto(`/user-dashboard`)
    const again = page.getByRole('listitem').filter({ hasText: examName }).last()
    const start = again.getByRole('button', { name: 'Start Exam' })
    if (await start.isEnabled()) {
      await start.click()
      await page.getByRole('heading', { level: 1, name: examName }).waitFor()
      await page.getByRole('button', { name: 'Start Exam' }).click()
      await page
        .getByText(/used all 1 attempt/i)
        .first()
        .waitFor()
    } else {
      await again
        .getByText(/1 of 1|attempts? used|no attempts left/i)
        .first()
        .waitFor()
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
