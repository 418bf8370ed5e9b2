import { describe, expect, inject, it } from 'vitest'
import { axeSerious, logIn, openPage, suiteBrowser, watchErrors } from './browser.ts'

// Issue 15 item 8: errors a person can act on, and scores they can follow.
const baseURL = inject('baseURL')
const browser = suiteBrowser()
const newPage = () => openPage(browser(), baseURL)

const apiToken = async (email: string, password: string) => {
  const res = await fetch(`${baseURL}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })
  return ((await res.json()) as { token: string }).token
}

describe('errors you can act on', () => {
  it('the dashboard says once that it could not load, and Try Again fetches it again in place', async () => {
    const page = await newPage()
    const errors = watchErrors(page)
    const down = (route: import('playwright-core').Route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"","code":"unavailable"}' })
    const failing = ['**/api/exams', '**/api/users/*/stats', '**/api/courses/with-progress']
    for (const url of failing) await page.route(url, down)
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    const alert = page.getByRole('alert')
    await alert.filter({ hasText: 'Failed to load data. Please try again later.' }).waitFor()
    await expect.poll(() => page.getByText('Not loaded.').count()).toBe(4)
    expect(await alert.count()).toBe(1)
    expect(await axeSerious(page)).toEqual([])

    for (const url of failing) await page.unroute(url, down)
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
    await alert.getByRole('button', { name: 'Try Again' }).click()
    await page.getByRole('heading', { name: 'Available Exams' }).waitFor()
    await expect.poll(() => page.getByText('Not loaded.').count()).toBe(0)
    expect(await alert.count()).toBe(0)
    await page.getByText('Exams Taken').waitFor()
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('the verification screen names the address and counts down before Resend Code', async () => {
    const page = await newPage()
    await page.clock.install()
    const email = `verify.${Date.now()}@example.com`
    await page.goto('/register')
    await page.getByLabel('Full Name').fill('Vera Fy')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('Secret123!')
    // A busy moment answers 429 with Retry-After, and the page sends the registration again on a
    // timer (decision 0042), which the installed clock would hold. This test is about the
    // verification screen, so the busy moments are waited out here, in real time, as the page
    // would: the page sees the registration's final answer.
    await page.route('**/api/auth/register', async (route) => {
      for (let tries = 0; ; tries++) {
        const res = await route.fetch()
        const busy = res.status() === 429 && ((await res.json()) as { code?: string }).code === 'busy'
        if (!busy || tries === 60) return route.fulfill({ response: res })
        await new Promise((r) => setTimeout(r, Number(res.headers()['retry-after'] ?? '1') * 1000))
      }
    })
    await page.getByRole('button', { name: 'Register' }).click()
    const heading = page.getByRole('heading', { name: 'Verify Your Email' })
    await heading.waitFor({ timeout: 150_000 })
    await page.getByText(`We sent a 6-digit verification code to ${email}.`).waitFor()
    const resend = page.getByRole('button', { name: 'Resend Code' })
    expect(await resend.getAttribute('aria-disabled')).toBe('true')
    await page.getByText(/You can ask for a new code in 30 seconds\./).waitFor()
    expect(await axeSerious(page)).toEqual([])
    // The installed clock runs on in real time too (a slow axe scan spends some of the countdown), so
    // after the test moves it 10 s the hint says at most 20 seconds, and still counts down.
    const countdown = page.getByText(/You can ask for a new code in \d+ seconds?\./)
    const secondsLeft = async () => Number(/in (\d+) second/.exec((await countdown.textContent()) ?? '')?.[1])
    await page.clock.fastForward(10_000)
    await expect.poll(secondsLeft).toBeLessThanOrEqual(20)
    await page.clock.fastForward(21_000)
    await page.getByText('No code? Check your spam folder, or ask for a new one.').waitFor()
    expect(await resend.getAttribute('aria-disabled')).toBeNull()
    await page.context().close()
  }, 180_000)

  it('the results explain a weighted score', async () => {
    const admin = await apiToken('admin@example.com', 'Admin123!')
    const name = `Weighted ${Date.now()}`
    const created = await fetch(`${baseURL}/api/exams`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: JSON.stringify({
        name,
        time_limit: 10,
        pass_score: 50,
        total_questions: 2,
        exam_type: 'practice',
        is_assigned_to_all: true,
        subject_categories: [],
        questions: [
          { question_type: 'multiple_choice', question_text: 'Light question?', options: ['Right', 'Wrong'], correct_answer: 0, category_weight: 1 },
          { question_type: 'multiple_choice', question_text: 'Heavy question?', options: ['Right', 'Wrong'], correct_answer: 0, category_weight: 3 },
        ],
      }),
    })
    expect(created.status).toBe(201)
    const page = await newPage()
    await logIn(page, 'tech.anchorage@example.com', 'Tech1234!')
    await page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: 'Start Exam' }).click()
    await page.getByRole('heading', { level: 1, name }).waitFor()
    await page.getByRole('button', { name: 'Start Exam' }).click()
    const current = page.getByRole('region', { name: 'Current question' })
    for (const _ of [1, 2]) {
      const heading = await current.getByRole('heading').first().textContent()
      await current.getByLabel(heading?.includes('Light') ? 'Right' : 'Wrong').check()
      const next = current.getByRole('button', { name: 'Next' })
      if (await next.count()) await next.click()
    }
    await current.getByRole('button', { name: 'Review and Submit' }).click()
    await page.getByRole('region', { name: 'Review Your Answers' }).getByRole('button', { name: 'Submit Exam' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Submit Exam' }).click()
    await page.waitForURL('**/exam-results')
    await page
      .getByText('Questions carry different weights, so your score counts points rather than questions: 1 of 2 questions correct earned 1 of 4 points, which is 25%.')
      .waitFor()
    await page.getByText('Weight: 3 points').waitFor()
    expect(await axeSerious(page)).toEqual([])
    await page.context().close()
  })
})
