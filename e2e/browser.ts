import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** Debian's Chromium, headless, with the flags this machine needs (and `args`, e.g. host resolver rules). */
export function launchBrowser(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage', ...args],
  })
}

/** A new browser context signed in through the login screen, on the dashboard the role lands on. */
export async function signedInPage(browser: Browser, baseURL: string, email: string, password: string, context: BrowserContextOptions = {}): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, ...context })).newPage()
  page.setDefaultTimeout(15_000)
  await logIn(page, email, password)
  await page.waitForURL(/dashboard$/)
  return page
}

/** One Chromium for the journeys of a file: launched before them, closed after; call it at the top of the file. */
export function suiteBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => browser!
}

/** A page in a context of its own (nothing stored shared with another journey), 15 s a step. */
export async function openPage(browser: Browser, baseURL: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, ...(viewport ? { viewport } : {}) })).newPage()
  page.setDefaultTimeout(15_000)
  return page
}

/** A phone's screen, as the phone journeys size the page (issue 15 item 7, issue 30 item 1). */
export const PHONE = { width: 390, height: 844 }

/**
 * Elements of the page's header, main and an open dialog reaching past the screen's edges (a phone
 * would scroll the page sideways). What lies inside a box that scrolls on its own (a table's box,
 * the tab list, a chart's scroller) is that box's business: the box itself is measured, and axe's
 * scrollable-region-focusable rule holds it reachable by keyboard.
 */
export const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const scrolls = (el: Element) => el !== document.body && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)
    const wide: string[] = []
    for (const el of document.querySelectorAll<Element>('main *, header *, dialog[open] *')) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || getComputedStyle(el).visibility === 'hidden') continue
      let inside = false
      for (let p = el.parentElement; p && p !== document.documentElement && !inside; p = p.parentElement) inside = scrolls(p)
      if (inside) continue
      if (box.right > width + 1 || box.left < -1) wide.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${Math.round(box.left)}..${Math.round(box.right)}`)
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) }
  })

/** Signs in through the login form, as a person does (where it lands is for the journey to check). */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  // A sign-in told the hashes are busy waits and goes again (up to 20 s, decision 0042); on a
  // loaded machine that outlasts a step's 15 s, so wait for the form to finish first.
  await page.waitForFunction(() => !document.querySelector('button[type=submit]')?.textContent?.includes('Logging in'), null, { timeout: 45_000 })
}

/** A practice exam of one question assigned to everyone, made through the API as the admin. */
export async function createPracticeExam(baseURL: string, name: string): Promise<void> {
  const { auth } = await apiLogIn(baseURL, 'admin@example.com', 'Admin123!')
  const res = await fetch(`${baseURL}/api/exams`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth },
    body: JSON.stringify({
      name,
      time_limit: 10,
      pass_score: 50,
      total_questions: 1,
      exam_type: 'practice',
      is_assigned_to_all: true,
      subject_categories: [],
      questions: [{ question_type: 'multiple_choice', question_text: 'Ready?', options: ['Yes', 'No'], correct_answer: 0, category_weight: 1 }],
    }),
  })
  expect(res.status).toBe(201)
}

/** Signs in through the API: the user's id and the Authorization header for direct calls. */
export async function apiLogIn(baseURL: string, email: string, password: string): Promise<{ id: string; auth: { authorization: string } }> {
  const res = await fetch(`${baseURL}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  if (!res.ok) throw new Error(`login of ${email} answered ${res.status}`)
  const { token, user } = (await res.json()) as { token: string; user: { id: string } }
  return { id: user.id, auth: { authorization: `Bearer ${token}` } }
}

export interface MailboxMessage {
  id: string
  to: string
  subject: string
  text: string
  html: string
  sentAt: string
}

/** Waits for the newest dev-mailbox message to `to` that matches `pattern`; returns the match. */
export async function waitForMail(baseURL: string, to: string, pattern: RegExp, after?: string): Promise<RegExpExecArray> {
  const end = Date.now() + 20_000
  for (;;) {
    const res = await fetch(`${baseURL}/api/dev/mailbox?to=${encodeURIComponent(to)}`)
    if (res.ok) {
      const list = (await res.json()) as MailboxMessage[]
      for (const m of list) {
        if (after && m.sentAt <= after) continue
        const match = pattern.exec(m.text)
        if (match) return match
      }
    }
    if (Date.now() > end) throw new Error(`no mail to ${to} matching ${pattern}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Collects page errors so a journey can assert the page stayed healthy. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}

// Keyboard only: where focus is, getting there with Tab, what a control's description says.

/**
 * The focused element as a screen reader names it, from the accessibility tree: role, name and
 * states (`button "Move down Module 2"`, `textbox "Course Title" [invalid]`), without its value or
 * text; `<body>` when focus was dropped.
 */
export async function focusedControl(page: Page): Promise<string> {
  if (await page.evaluate(() => !document.activeElement || document.activeElement === document.body)) return '<body>'
  let line = (await page.locator(':focus').ariaSnapshot()).split('\n')[0]!.replace(/^- /, '')
  // YAML quotes a line whose name holds ": ".
  const quoted = /^'((?:[^']|'')*)'/.exec(line)
  if (quoted) line = quoted[1]!.replaceAll("''", "'")
  return /^\S+(?: "(?:[^"\\]|\\.)*")?(?: \[[^\]]*\])*/.exec(line)![0]
}

/** Presses Tab (Shift+Tab with `back`) until `target` has focus, as a keyboard user gets there; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}): Promise<void> {
  const max = opts.max ?? 30
  for (let i = 0; i <= max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`${max} presses of ${opts.back ? 'Shift+Tab' : 'Tab'} did not reach ${target}; focus is on ${await focusedControl(page)}`)
}

/** The text of an element's description (what aria-describedby points at), as read after its name. */
export const descriptionOf = (target: Locator): Promise<string> =>
  target.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  )

// Accessibility: axe-core's rules on the page as it is now.

// Read once; evaluated through the DevTools protocol, which the portal's CSP (script-src 'self') does not block.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** One axe violation as a line a test failure can show: impact, rule, and the first elements hit. */
export interface AxeProblem {
  impact: string
  id: string
  help: string
  targets: string[]
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and best practices) on the page, or on the part matching
 * `include`; answers the serious and critical violations (a journey expects none).
 */
export async function axeSerious(page: Page, include?: string): Promise<AxeProblem[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const problems = await page.evaluate(async (context) => {
    const axe = (
      window as unknown as {
        axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { impact: string | null; id: string; help: string; nodes: { target: unknown[] }[] }[] }> }
      }
    ).axe
    const result = await axe.run(context ? { include: [context] } : document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({ impact: v.impact ?? 'unknown', id: v.id, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
  }, include ?? null)
  return problems.filter((p) => p.impact === 'serious' || p.impact === 'critical')
}
