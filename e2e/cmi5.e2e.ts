import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Cmi5Status, Course } from '@portal/contracts'
import { apiLogIn, axeSerious, descriptionOf, launchBrowser, tabTo } from './browser.ts'
import { apiAs, courseCard, DEMO, eventually, myCourses, openCourse, report, signIn, zipOf, type Session } from './courses-support.ts'

/*
 * Issue 26: a cmi5 course played in the real viewer. The package is e2e/cmi5-aus (cmi5.xml and
 * one test AU page, unit.html + au.js, that behaves as cmi5 §8-9 want and writes each step as a
 * line "<step>: <outcome>"). An admin creates the course through the API; a learner plays each AU
 * in the course viewer: one per moveOn value, a multi-session AU, an abandoned session, an AU in
 * its own window; an admin waives one; the module's completion and the course's are read back.
 *
 * What it assumes of the server (decision 0053): POST /api/cmi5/{id}/launch answers a launch URL
 * on the content origin with endpoint/fetch/actor/registration/activityId; the AU's fetch URL, the
 * LRS (statements with the registration/activity/verb filters, activities/state, agents/profile)
 * at the content origin; LMS.LaunchData with returnURL {contentOrigin}/player/?cmi5-return={id};
 * Launched before each launch and Abandoned for a session left without Terminated by the next
 * launch at the latest; GET /api/cmi5/{id}/status (admins with ?user_id=), with each AU's
 * `launched` and `open` (a session neither Terminated nor abandoned), and POST .../waive.
 */

const baseURL = inject('baseURL')
const run = Date.now().toString(36).slice(-5)
const TITLE = `Ladder safety cmi5 ${run}`
const AUS_DIR = fileURLToPath(new URL('./cmi5-aus/', import.meta.url))
const AU_BASE = 'https://e2e.portal.example/cmi5/ladder-course/aus/'

/** The AUs of e2e/cmi5-aus/cmi5.xml by title, with their ids. */
const AU = {
  introduction: { title: 'Introduction', id: `${AU_BASE}introduction` },
  quiz: { title: 'Ladder quiz', id: `${AU_BASE}quiz` },
  siteWalk: { title: 'Site walk', id: `${AU_BASE}site-walk` },
  harness: { title: 'Harness check', id: `${AU_BASE}harness-check` },
  field: { title: 'Field checklist', id: `${AU_BASE}field-checklist` },
  notes: { title: 'Reference notes', id: `${AU_BASE}reference-notes` },
  refresher: { title: 'Refresher', id: `${AU_BASE}refresher` },
} as const
type AuKey = keyof typeof AU

let browser: Browser
let learner: Session
let adminAuth: { authorization: string }
let learnerId: string
let moduleId: number

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

// ---------- the viewer's unit list and the AU's page ----------

const units = (page: Page) => page.getByRole('list', { name: 'Units', exact: true })
const unitRow = (page: Page, key: AuKey) => units(page).getByRole('listitem', { name: AU[key].title, exact: true })
const unitText = async (page: Page, key: AuKey) => ((await unitRow(page, key).textContent()) ?? '').replace(/\s+/g, ' ')
const auFrame = (page: Page, key: AuKey): FrameLocator => page.frameLocator(`iframe[title="${AU[key].title}"]`)

/** What a button of the AU sends, as its log names it. */
const SENT = { Complete: 'Completed', Pass: 'Passed', Fail: 'Failed' } as const

/** Starts (or resumes) an AU from the list (by keyboard with `keyboard`): its page in the viewer's frame, once it has sent Initialized. */
async function openInFrame(page: Page, key: AuKey, button: 'Start' | 'Resume' | 'Open again', opts: { keyboard?: boolean } = {}): Promise<FrameLocator> {
  const control = unitRow(page, key).getByRole('button', { name: button, exact: true })
  if (opts.keyboard) {
    await tabTo(page, control, { max: 60 })
    await page.keyboard.press('Enter')
  } else await control.click()
  const frame = auFrame(page, key)
  await frame.getByText('Ready: yes').waitFor()
  return frame
}

/** Presses Complete, Pass or Fail in the AU (with the score typed first) and waits until the LRS took the statement. */
async function press(au: Pick<Page, 'getByRole' | 'getByLabel' | 'getByText'> | FrameLocator, button: keyof typeof SENT, score?: number): Promise<void> {
  if (score !== undefined) await au.getByLabel('Score (0 to 1)').fill(String(score))
  await au.getByRole('button', { name: button, exact: true }).click()
  await au.getByText(`${SENT[button]}: sent`).waitFor()
}

/** Terminate in the frame: the AU goes to its returnURL, the content player tells the viewer, the frame closes. */
async function terminateInFrame(page: Page, key: AuKey): Promise<void> {
  await auFrame(page, key).getByRole('button', { name: 'Terminate', exact: true }).click()
  await page.locator(`iframe[title="${AU[key].title}"]`).waitFor({ state: 'detached' })
  await units(page).waitFor()
}

/** "Check history" in the AU: how many statements of each verb the LRS holds for this AU in this registration. */
async function history(au: FrameLocator | Page): Promise<Record<string, number>> {
  const lines = au.locator('[data-step="History"]')
  const before = await lines.count()
  await au.getByRole('button', { name: 'Check history', exact: true }).click()
  await lines.nth(before).waitFor()
  const text = (await lines.nth(before).textContent()) ?? ''
  const counts: Record<string, number> = {}
  for (const m of text.matchAll(/(\w+) (\d+)/g)) counts[m[1]!] = Number(m[2])
  if (Object.keys(counts).length === 0) throw new Error(`history: ${text}`)
  return counts
}

const status = async (): Promise<Cmi5Status> => {
  const res = await fetch(`${baseURL}/api/cmi5/${moduleId}/status?user_id=${learnerId}`, { headers: adminAuth })
  if (res.status !== 200) throw new Error(`GET /api/cmi5/${moduleId}/status -> ${res.status} ${await res.text()}`)
  return (await res.json()) as Cmi5Status
}
const auStatus = async (key: AuKey) => (await status()).aus.find((a) => a.id === AU[key].id)!

describe('cmi5 journey', () => {
  it('an admin creates a course from the cmi5 package through the API; the module is a cmi5 package of 7 AUs', async () => {
    const admin = await apiLogIn(baseURL, DEMO.admin.email, DEMO.admin.password)
    adminAuth = admin.auth
    learnerId = (await apiLogIn(baseURL, DEMO.portland.email, DEMO.portland.password)).id

    const files: Record<string, string> = {}
    for (const name of await readdir(AUS_DIR)) files[name] = await readFile(`${AUS_DIR}${name}`, 'utf8')
    expect(Object.keys(files).sort()).toEqual(['au.js', 'cmi5.xml', 'unit.html'])
    const zip = await zipOf(files)
    const form = new FormData()
    form.append('title', TITLE)
    form.append('is_assigned_to_all', 'true')
    form.append('moduleData', JSON.stringify([{ title: 'Ladder safety units', order: 1 }]))
    form.append('moduleFiles', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'ladder-cmi5.zip')
    const created = await fetch(`${baseURL}/api/courses`, { method: 'POST', headers: adminAuth, body: form })
    expect(created.status, await created.clone().text()).toBe(201)
    const course = (await created.json()) as Course
    moduleId = course.modules[0]!.id

    const ready = await eventually(
      async () => {
        const res = await fetch(`${baseURL}/api/admin/courses`, { headers: adminAuth })
        const list = (await res.json()) as Course[] | { data: Course[] }
        return (Array.isArray(list) ? list : list.data).find((c) => c.id === course.id)!.modules[0]!
      },
      (m) => m.processing_status !== 'processing',
      'the package processed',
      60_000,
    )
    expect(ready).toMatchObject({ processing_status: 'ready', processing_error: null, is_scorm: true, scorm_version: 'cmi5', sco_count: 7 })

    // Before any launch: every AU of the structure, nothing reached yet.
    const before = await status()
    expect(before.satisfied).toBe(false)
    expect(before.aus.map((a) => [a.title, a.moveOn, a.launchMethod])).toEqual([
      ['Introduction', 'Completed', 'AnyWindow'],
      ['Ladder quiz', 'Passed', 'AnyWindow'],
      ['Site walk', 'CompletedOrPassed', 'AnyWindow'],
      ['Harness check', 'CompletedAndPassed', 'AnyWindow'],
      ['Field checklist', 'Completed', 'OwnWindow'],
      ['Reference notes', 'NotApplicable', 'AnyWindow'],
      ['Refresher', 'Completed', 'AnyWindow'],
    ])
    for (const a of before.aus) expect(a).toMatchObject({ completed: false, passed: false, failed: false, waived: false })
  })

  it('the learner opens the course: the viewer lists the units, and the SCORM launch refuses the module', async () => {
    learner = await signIn(browser, baseURL, DEMO.portland)
    const page = learner.page
    await openCourse(page, TITLE)
    await expect.poll(() => units(page).getByRole('listitem').count()).toBe(7)
    expect(await unitText(page, 'introduction')).toContain('Not started')
    await unitRow(page, 'introduction').getByRole('button', { name: 'Start', exact: true }).waitFor()
    expect(await unitText(page, 'field')).toContain('Opens in a new window')
    await page.getByText('Complete the units below to finish this module.').waitFor()
    // Each unit's button is described by the unit's title (a screen reader hears "Start, Introduction").
    expect(await descriptionOf(unitRow(page, 'introduction').getByRole('button'))).toBe('Introduction')
    expect(await axeSerious(page, 'section[aria-labelledby="course-viewer-title"]')).toEqual([])

    const scorm = await apiAs<{ code: string; message: string }>(page, baseURL, `/scorm/${moduleId}/launch`)
    expect(scorm.status).toBe(400)
    expect(scorm.body).toMatchObject({ code: 'is_cmi5', message: 'This module is a cmi5 course: open it with the cmi5 launch' })
  })

  it('moveOn Completed: the AU reads its launch, completes, terminates and the viewer comes back to the list', async () => {
    const page = learner.page
    const au = await openInFrame(page, 'introduction', 'Start', { keyboard: true })
    // The AU's steps of cmi5 §8-10: parameters, the one-time auth-token, LaunchData, Initialized.
    for (const line of ['Launch parameters: ok', 'Fetch auth-token: ok', 'LaunchData: ok (launchMode Normal, moveOn Completed)', 'Initialized: sent'])
      await au.getByText(line, { exact: true }).waitFor()
    // The frame is the SCORM player's: sandboxed the same way, on the content origin.
    const frame = page.locator(`iframe[title="${AU.introduction.title}"]`)
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms allow-modals allow-downloads')
    expect(new URL((await frame.getAttribute('src'))!).pathname).toMatch(/^\/api\/content\/.+\/unit\.html$/)
    await press(au, 'Complete')
    await terminateInFrame(page, 'introduction')
    await expect.poll(() => unitText(page, 'introduction')).toContain('Completed')
    await unitRow(page, 'introduction').getByRole('button', { name: 'Open again', exact: true }).waitFor()
    expect(await auStatus('introduction')).toMatchObject({ completed: true, satisfied: true })
  })

  it('an abandoned session: the learner leaves the quiz without Terminate; the next launch finds it Abandoned', async () => {
    const page = learner.page
    const first = await openInFrame(page, 'quiz', 'Start')
    await first.getByText('LaunchData: ok (launchMode Normal, moveOn Passed, masteryScore 0.8)', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Return to the course', exact: true }).click()
    await units(page).waitFor()
    expect(await auStatus('quiz')).toMatchObject({ passed: false, failed: false, satisfied: false })

    const second = await openInFrame(page, 'quiz', 'Resume')
    const counts = await eventually(
      () => history(second),
      (c) => c.abandoned === 1,
      'the first session abandoned',
    )
    expect(counts).toMatchObject({ launched: 2, initialized: 2, terminated: 0, abandoned: 1 })
    // Failed under the mastery score, then terminated: failed, not satisfied.
    await press(second, 'Fail', 0.5)
    await terminateInFrame(page, 'quiz')
    await expect.poll(() => unitText(page, 'quiz')).toContain('Failed · Score 50%')
    expect(await auStatus('quiz')).toMatchObject({ failed: true, passed: false, satisfied: false, score: 0.5 })

    // moveOn Passed: a later session passes it.
    const third = await openInFrame(page, 'quiz', 'Resume')
    await press(third, 'Pass', 0.9)
    expect(await history(third)).toMatchObject({ launched: 3, terminated: 1, abandoned: 1 })
    await terminateInFrame(page, 'quiz')
    await expect.poll(() => unitText(page, 'quiz')).toContain('Passed · Score 90%')
    expect(await auStatus('quiz')).toMatchObject({ passed: true, satisfied: true, score: 0.9 })
  })

  it('moveOn CompletedOrPassed: passing alone satisfies it', async () => {
    const page = learner.page
    const au = await openInFrame(page, 'siteWalk', 'Start')
    await press(au, 'Pass', 0.75)
    await terminateInFrame(page, 'siteWalk')
    await expect.poll(() => unitText(page, 'siteWalk')).toContain('Passed')
    expect(await auStatus('siteWalk')).toMatchObject({ completed: false, passed: true, satisfied: true })
  })

  it('moveOn CompletedAndPassed over two sessions, each terminated: completed in the first, passed in the second', async () => {
    const page = learner.page
    const first = await openInFrame(page, 'harness', 'Start')
    await press(first, 'Complete')
    await terminateInFrame(page, 'harness')
    await expect.poll(() => unitText(page, 'harness')).toContain('Completed')
    expect(await auStatus('harness')).toMatchObject({ completed: true, passed: false, satisfied: false })
    await unitRow(page, 'harness').getByRole('button', { name: 'Resume', exact: true }).waitFor()

    const second = await openInFrame(page, 'harness', 'Resume')
    expect(await history(second)).toMatchObject({ launched: 2, initialized: 2, terminated: 1, abandoned: 0 })
    await press(second, 'Pass', 0.8)
    await terminateInFrame(page, 'harness')
    await expect.poll(() => unitText(page, 'harness')).toContain('Completed, Passed')
    expect(await auStatus('harness')).toMatchObject({ completed: true, passed: true, satisfied: true })
  })

  it('moveOn NotApplicable: satisfied from the registration on, whatever the AU reports', async () => {
    const page = learner.page
    expect(await unitText(page, 'notes')).toContain('Satisfied')
    await openInFrame(page, 'notes', 'Start')
    await terminateInFrame(page, 'notes')
    expect(await auStatus('notes')).toMatchObject({ satisfied: true })
    await expect.poll(() => unitText(page, 'notes')).toContain('Satisfied')
  })

  it('an OwnWindow AU opens in a window of its own; the viewer says so, and comes back once the AU has terminated', async () => {
    const page = learner.page
    const popup = page.waitForEvent('popup')
    await unitRow(page, 'field').getByRole('button', { name: 'Start', exact: true }).click()
    const win = await popup
    await page.getByText('This unit is open in another window.').waitFor()
    await page.getByRole('button', { name: 'Return to the course', exact: true }).waitFor()
    await win.waitForURL(/\/unit\.html\?/)
    await win.getByText('Ready: yes').waitFor()
    await press(win, 'Complete')
    await win.getByRole('button', { name: 'Terminate', exact: true }).click()
    // The AU goes to its returnURL, the content player's return page.
    await win.waitForURL(/\/player\/\?cmi5-return=\d+$/)
    await win.getByText('You have left this unit. You can close this window.').waitFor()
    await win.close()
    // The portal's COOP (same-origin) cuts the window off from the viewer: the viewer sees the
    // session end in the statuses it reads every 5 s (and on focus) while the unit is open.
    await units(page).waitFor({ timeout: 20_000 })
    await expect.poll(() => unitText(page, 'field')).toContain('Completed')
    expect(await auStatus('field')).toMatchObject({ completed: true, satisfied: true, open: false })
  })

  it('an admin waives the last AU: the module is satisfied, shown completed, and the course completes', async () => {
    const page = learner.page
    const refused = await fetch(`${baseURL}/api/cmi5/${moduleId}/waive`, {
      method: 'POST',
      headers: { ...(await apiLogIn(baseURL, DEMO.portland.email, DEMO.portland.password)).auth, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: learnerId, au_id: AU.refresher.id, reason: 'Tested Out' }),
    })
    expect(refused.status).toBe(403)
    const bad = await fetch(`${baseURL}/api/cmi5/${moduleId}/waive`, {
      method: 'POST',
      headers: { ...adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: learnerId, au_id: AU.refresher.id, reason: 'Because' }),
    })
    expect(bad.status).toBe(400)
    // The admin waives it from the learner's statistics (Users → Stats → cmi5 Units), by keyboard-reachable controls.
    const admin = await signIn(browser, baseURL, DEMO.admin)
    try {
      const adminPage = admin.page
      await adminPage.goto('/admin-dashboard')
      await adminPage.getByRole('tab', { name: 'Users' }).click()
      await adminPage.getByRole('button', { name: `Stats of ${DEMO.portland.name}` }).click()
      const stats = adminPage.getByRole('dialog', { name: `User Statistics: ${DEMO.portland.name}` })
      const section = stats.getByRole('region', { name: 'cmi5 Units' })
      const units = section.getByRole('table').filter({ hasText: AU.refresher.title })
      await units.getByRole('row', { name: new RegExp(AU.refresher.title) }).waitFor()
      await section.getByRole('button', { name: `Waive ${AU.refresher.title}` }).click()
      const waive = adminPage.getByRole('dialog', { name: `Waive unit: ${AU.refresher.title}` })
      // No reason chosen: said on the field, nothing sent.
      await waive.getByRole('button', { name: 'Waive unit' }).click()
      await waive.getByText('Choose why the unit is waived').waitFor()
      await waive.getByLabel('Reason').selectOption('Tested Out')
      expect(await axeSerious(adminPage)).toEqual([])
      await waive.getByRole('button', { name: 'Waive unit' }).click()
      await waive.waitFor({ state: 'detached' })
      await expect.poll(async () => (await units.getByRole('row', { name: new RegExp(AU.refresher.title) }).textContent()) ?? '').toContain('Waived')
      // The statistics dialog stayed open; the waiver is in the audit trail.
      await stats.getByRole('button', { name: 'Close' }).click()
      expect(admin.errors, report(admin)).toEqual([])
    } finally {
      await admin.page.context().close()
    }
    const after = await status()
    expect(after.aus.find((a) => a.id === AU.refresher.id)).toMatchObject({ waived: true, satisfied: true })
    expect(after.satisfied).toBe(true)

    // The viewer reads the statuses again when its window gets focus (the learner coming back).
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await expect.poll(() => unitText(page, 'refresher')).toContain('Waived')
    await page.getByText('You have completed this module.').waitFor()
    const nav = page.getByRole('navigation', { name: 'Course modules' })
    await nav.getByText('1 of 1 modules completed').waitFor()
    await expect.poll(async () => nav.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe('100')
  })

  it('completion reads back: the course is completed in the API and on the dashboard', async () => {
    const page = learner.page
    const course = (await myCourses(page, baseURL)).find((c) => c.title === TITLE)!
    expect(course).toMatchObject({ status: 'completed', progress: 100 })
    expect(course.completed_at).not.toBeNull()
    expect(course.modules[0]!.completed_at).not.toBeNull()

    await page.getByRole('button', { name: 'Close Course' }).click()
    await page.getByRole('region', { name: 'My Courses' }).waitFor()
    await expect.poll(async () => (await courseCard(page, TITLE).textContent()) ?? '').toContain('Completed')
    expect(learner.errors, report(learner)).toEqual([])
  })
})
