import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEFAULT_COMPANY_TIME_ZONE, todayIn, type MyAssignments, type TeamResponse, type TechnicianProfile } from '@portal/contracts'
import { apiLogIn, axeSerious, launchBrowser, waitForMail } from './browser.ts'
import { adminCourses, apiAs, contentFrame, eventually, myCourses, openCourse, closeCourse, report, signIn, uploadCourse, zipOf, type Session } from './courses-support.ts'

// Training that is due (issue 24) as people meet it: an admin gives a user group a course that is
// due 30 days after hire and every 12 months after, through the rule form and its dry run; the
// learner, hired long before, finds it overdue at the top of their dashboard; their manager sees
// them in the team's Overdue figures and on their page; the learner completes the course late; the
// manager then sees "Completed late"; and the certification the course renews has a new period,
// with the earlier one kept in its history.
const baseURL = inject('baseURL')
const run = Date.now().toString(36)
const DAY = 86_400_000
const today = todayIn(DEFAULT_COMPANY_TIME_ZONE)
const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10)
// Anchorage · Testing: the journey's own place (its manager watches Anchorage only).
const PLACE = { branch: 'Anchorage', department: 'Testing' } as const
const GROUP = `Due Crew ${run}`
const COURSE = `Ladder Safety ${run}`
const CODE = `LDR-${run}`.toUpperCase()

let browser: Browser
const sessions: Session[] = []
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

type Auth = { authorization: string }
const api = async <T = unknown>(auth: Auth, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T }
}

/** A user registered and verified by the e-mailed code, with their place. */
async function register(name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${run}@example.com`
  const password = 'Due12345!'
  const registered = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
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
  const { auth } = await apiLogIn(baseURL, email, password)
  expect((await api(auth, 'PUT', `/users/${userId}/profile`, PLACE)).status).toBe(200)
  return { id: userId, name, email, password }
}

/** A SCORM 1.2 package of one SCO that reports itself completed as soon as it is opened. */
const selfCompletingPackage = () =>
  zipOf({
    'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="ladder" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Ladder Safety</title>
    <item identifier="lesson" identifierref="r-lesson"><title>Ladder lesson</title></item>
  </organization></organizations>
  <resources><resource identifier="r-lesson" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`,
    'index.html': `<!doctype html><html><head><meta charset="utf-8"><title>Ladder lesson</title></head><body><h1>Ladder lesson</h1>
<script>var api = window.parent && window.parent.API;
var done = api ? [api.LMSInitialize(''), api.LMSSetValue('cmi.core.lesson_status', 'completed'), api.LMSCommit('')].join(',') : 'no API';
document.documentElement.setAttribute('data-scorm', done);</script></body></html>`,
  })

const signedIn = async (who: { email: string; password: string }) => {
  const s = await signIn(browser, baseURL, who)
  sessions.push(s)
  return s
}
const openMember = async (page: Page, id: string) => {
  await page.goto(`/manager/technician/${id}`)
  return page.getByRole('table', { name: 'Assignments' })
}

let tech: Awaited<ReturnType<typeof register>>
let manager: Awaited<ReturnType<typeof register>>
let admin: Auth
let courseId = 0
let typeId = 0

describe('training that is due', () => {
  it('an admin gives a group a recurring course due 30 days after hire, through the dry run', async () => {
    admin = (await apiLogIn(baseURL, 'admin@example.com', 'Admin123!')).auth
    ;[tech, manager] = await Promise.all([register('Dana Due'), register('Max Duemanager')])
    // HR facts: Dana was hired 90 days ago and is in the group; Max manages Anchorage.
    expect(await api(admin, 'POST', '/admin/user-groups', { groupName: GROUP })).toMatchObject({ status: 201 })
    expect(await api(admin, 'PATCH', `/users/${tech.id}/group`, { userGroup: GROUP })).toMatchObject({ status: 200 })
    expect(await api(admin, 'PUT', `/users/${tech.id}/employment`, { hire_date: daysAgo(90) })).toMatchObject({ status: 200 })
    expect(await api(admin, 'PUT', `/users/${manager.id}/roles`, { is_manager: true, manager_scope: { branches: [PLACE.branch], departments: [] } })).toMatchObject({ status: 200 })

    const { page } = await signedIn({ email: 'admin@example.com', password: 'Admin123!' })
    await page.getByRole('tab', { name: 'Courses' }).click()
    await uploadCourse(page, COURSE, [{ name: 'ladder.zip', mimeType: 'application/zip', buffer: await selfCompletingPackage() }])
    const course = await eventually(
      () => adminCourses(page, baseURL),
      (list) => list.find((c) => c.title === COURSE)?.modules[0]?.processing_status === 'ready',
      'the package ingested',
      60_000,
    )
    courseId = course.find((c) => c.title === COURSE)!.id
    // The certification the course renews; Dana holds it from a year ago, about to expire.
    const created = await api<{ certification: { id: number } }>(admin, 'POST', '/admin/certifications', {
      name: `Ladder Safety ${run}`,
      code: CODE,
      validity_period: 12,
      upload_required: false,
      renewed_by: [{ item_kind: 'course', item_id: courseId, item_title: COURSE }],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    typeId = created.body.certification.id
    const held = await api(admin, 'POST', '/technician/certifications/add', {
      certification_id: typeId,
      user_id: tech.id,
      certification_number: `LS-${run}`,
      obtained_date: daysAgo(360),
    })
    expect(held.status, JSON.stringify(held.body)).toBe(201)

    await page.getByRole('tab', { name: 'Assignments' }).click()
    await page.getByRole('button', { name: 'New Assignment Rule' }).click()
    const form = page.getByRole('dialog', { name: 'New Assignment Rule' })
    await form.getByRole('combobox', { name: 'Item type' }).selectOption('course')
    await form.getByRole('combobox', { name: 'Course', exact: true }).selectOption({ label: COURSE })
    await form.getByRole('radio', { name: 'User group' }).check()
    await form.getByRole('combobox', { name: 'User group' }).selectOption(GROUP)
    await form.getByRole('radio', { name: 'Days after' }).check()
    await form.getByRole('spinbutton', { name: 'Days after' }).fill('30')
    await form.getByRole('combobox', { name: 'After', exact: true }).selectOption('hire')
    await form.getByRole('switch', { name: 'Recurring' }).click()
    await form.getByRole('spinbutton', { name: 'Every (months)' }).fill('12')
    await form.getByRole('spinbutton', { name: 'Open (days before)' }).fill('30')
    await form.getByRole('button', { name: 'Review changes' }).click()

    // The dry run: one person added, due 30 days after their hire date (60 days ago), nothing stored yet.
    const review = page.getByRole('dialog', { name: 'Review changes' })
    await review.getByRole('table').waitFor()
    const row = review.getByRole('row').filter({ hasText: tech.email })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('Added')
    expect((await api<{ assignments: unknown[] }>(admin, 'GET', `/admin/assignment-rules?item_kind=course&item_id=${courseId}`)).status).toBe(200)
    expect(await axeSerious(page)).toEqual([])
    await review.getByRole('button', { name: 'Save', exact: true }).click()
    await review.waitFor({ state: 'hidden' })
    const listed = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: COURSE }) })
    await listed.waitFor()
    expect(await listed.textContent()).toContain(GROUP)
  })

  it('the learner finds it overdue at the top of their dashboard', async () => {
    const learner = await signedIn(tech)
    const section = learner.page.getByRole('region', { name: 'Due and overdue' })
    const item = section.getByRole('listitem').filter({ hasText: COURSE })
    await item.waitFor({ timeout: 30_000 })
    expect(await item.textContent()).toMatch(/Overdue/)
    expect(await item.textContent()).toMatch(/60 days overdue/)
    const headings = await learner.page.getByRole('heading', { level: 2 }).allTextContents()
    expect(headings[0]).toBe('Due and overdue')
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('their manager sees them in the team’s Overdue figures and on their page', async () => {
    const boss = await signedIn(manager)
    // Learning's events reach svc-certs' projection through the bus; the team's figures follow.
    await eventually(
      async () => (await apiAs<TeamResponse>(boss.page, baseURL, '/manager/team?overdue=true&search=Dana')).body,
      (team) => team.teamMembers?.some((m) => m.id === tech.id && m.overdue_assignments >= 1) === true,
      'the team’s overdue figures',
      30_000,
    )
    await boss.page.goto('/manager/dashboard')
    await boss.page.getByRole('region', { name: 'Team summary' }).getByText('Overdue', { exact: true }).first().waitFor()
    await boss.page.getByLabel('Overdue only').check()
    await expect.poll(() => boss.page.url()).toContain('overdue=true')
    const row = boss.page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: tech.name })
    await row.waitFor()
    expect(await row.count()).toBe(1)
    const table = await openMember(boss.page, tech.id)
    const assignment = table.getByRole('row').filter({ hasText: COURSE })
    await assignment.waitFor()
    expect(await assignment.textContent()).toContain('Overdue')
    expect(boss.errors, report(boss)).toEqual([])
  })

  it('the learner completes the course late; the manager then sees Completed late', async () => {
    const learner = sessions[1]!
    await learner.page.goto('/user-dashboard')
    await openCourse(learner.page, COURSE)
    await expect.poll(() => contentFrame(learner.page).locator('html').getAttribute('data-scorm'), { timeout: 20_000 }).toBe('true,true,true')
    await eventually(
      () => myCourses(learner.page, baseURL),
      (list) => list.find((c) => c.title === COURSE)?.status === 'completed',
      'the course completed by its content',
    )
    await closeCourse(learner.page)
    const mine = await eventually(
      async () => (await apiAs<MyAssignments>(learner.page, baseURL, '/assignments/mine')).body,
      (m) => m.assignments.some((a) => a.item_id === courseId && a.state === 'completed_late'),
      'the assignment completed late',
    )
    const done = mine.assignments.find((a) => a.item_id === courseId)!
    expect(done).toMatchObject({ completed_on: today, recurring: true })
    expect(done.next_due_on).not.toBeNull()

    const boss = sessions[2]!
    await expect
      .poll(
        async () => {
          const table = await openMember(boss.page, tech.id)
          const row = table.getByRole('row').filter({ hasText: COURSE })
          await row.waitFor()
          return row.textContent()
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toContain('Completed late')
  })

  it('the certification the course renews has a new period from today, the earlier one in its history', async () => {
    const { auth } = await apiLogIn(baseURL, tech.email, tech.password)
    const profile = await eventually(
      async () => (await api<TechnicianProfile>(auth, 'GET', `/technician/profile/${tech.id}`)).body,
      (p) => p.certifications.some((c) => c.certification_id === typeId && c.obtained_date === today),
      'the renewed certification',
    )
    const renewed = profile.certifications.find((c) => c.certification_id === typeId)!
    expect(renewed.file_name).toMatch(/^certificate-of-completion-/)
    const history = await api<{ history: { obtained_date: string | null }[] }>(auth, 'GET', `/technician/certifications/${renewed.id}/history`)
    expect(history.status).toBe(200)
    expect(history.body.history.map((p) => p.obtained_date)).toContain(daysAgo(360))
    const proof = await fetch(`${baseURL}/api${renewed.file_path}`, { headers: auth })
    expect(proof.status).toBe(200)
    expect(
      Buffer.from(await proof.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })
})
