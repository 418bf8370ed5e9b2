import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Frame, FrameLocator, Locator, Page } from 'playwright-core'
import yauzl from 'yauzl'
import { ZipFile } from 'yazl'
import type { Course, CourseWithProgress, ScormLaunch, ScormProgress } from '@portal/contracts'

/** The real SCORM packages (never copied into the repository). */
export const fixturePath = (zip: string): string => fileURLToPath(new URL(`../../shared/fixtures/scorm/${zip}`, import.meta.url))

export const DEMO = {
  admin: { email: 'admin@example.com', password: 'Admin123!' },
  portland: { email: 'tech.portland@example.com', password: 'Tech1234!', name: 'Pat Portland' },
  seattle: { email: 'tech.seattle@example.com', password: 'Tech1234!', name: 'Sam Seattle' },
} as const

/** A signed-in page with everything it reported: page errors, console errors and failed API calls, dialogs. */
export interface Session {
  page: Page
  errors: string[]
  consoleErrors: string[]
  failedRequests: string[]
  dialogs: string[]
}

/**
 * Signs in through the login form in a fresh context. Dialogs (`confirm()` resume prompts of the
 * Golf content, alerts) are accepted and recorded; console errors and failing API answers are kept
 * so a failure can say what the product did.
 */
export async function signIn(browser: Browser, baseURL: string, who: { email: string; password: string }): Promise<Session> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  const session: Session = { page, errors: [], consoleErrors: [], failedRequests: [], dialogs: [] }
  page.on('pageerror', (e) => session.errors.push(String(e)))
  page.on('console', (m) => {
    if (m.type() === 'error') session.consoleErrors.push(`${m.text()} @ ${m.location().url}`)
  })
  page.on('response', (r) => {
    if (r.status() >= 400 && r.url().includes('/api/')) session.failedRequests.push(`${r.request().method()} ${new URL(r.url()).pathname} -> ${r.status()}`)
  })
  page.on('dialog', (d) => {
    session.dialogs.push(`${d.type()}: ${d.message()}`)
    void d.accept().catch(() => {})
  })
  await page.goto('/login')
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password', { exact: true }).fill(who.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await page.waitForURL(/\/(admin|user)-dashboard/)
  return session
}

/** What a failing journey prints: the page's errors, console errors, failed API calls and dialogs. */
export const report = (s: Session): string => JSON.stringify({ errors: s.errors, consoleErrors: s.consoleErrors, failedRequests: s.failedRequests, dialogs: s.dialogs }, null, 1)

/**
 * The page's bearer token. The shell keeps it in memory only (decision 0019: nothing in
 * localStorage), in ui-kit's slot on the global object; after a load it arrives with the start-up
 * refresh, so this waits for it.
 */
export const tokenOf = async (page: Page): Promise<string> => {
  const token = await page
    .waitForFunction(() => (globalThis as unknown as Record<symbol, string | null | undefined>)[Symbol.for('portal.ui-kit.access-token')] || null, undefined, { timeout: 10_000 })
    .then((h) => h.jsonValue())
    .catch(() => null)
  if (!token) throw new Error('no access token in the page')
  return token
}

/** Calls the portal's API as the page's user (Node fetch with its bearer token). */
export async function apiAs<T>(page: Page, baseURL: string, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseURL}/api${path}`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T }
}

export const scormProgress = async (page: Page, baseURL: string, moduleId: number): Promise<ScormProgress> => {
  const { status, body } = await apiAs<ScormProgress>(page, baseURL, `/scorm/progress/${moduleId}`)
  if (status !== 200) throw new Error(`GET /scorm/progress/${moduleId} -> ${status} ${JSON.stringify(body)}`)
  return body
}

/** A fresh launch answer: its `state` holds the stored cmi tree and entry of every SCO opened before. */
export const scormLaunch = async (page: Page, baseURL: string, moduleId: number): Promise<ScormLaunch> => {
  const { status, body } = await apiAs<ScormLaunch>(page, baseURL, `/scorm/${moduleId}/launch`)
  if (status !== 200) throw new Error(`GET /scorm/${moduleId}/launch -> ${status} ${JSON.stringify(body)}`)
  return body
}

export const myCourses = async (page: Page, baseURL: string): Promise<CourseWithProgress[]> => {
  const { status, body } = await apiAs<CourseWithProgress[] | { data: CourseWithProgress[] }>(page, baseURL, '/courses/with-progress')
  if (status !== 200) throw new Error(`GET /courses/with-progress -> ${status} ${JSON.stringify(body)}`)
  return Array.isArray(body) ? body : body.data
}

export const adminCourses = async (page: Page, baseURL: string): Promise<Course[]> => {
  const { status, body } = await apiAs<Course[] | { data: Course[] }>(page, baseURL, '/admin/courses')
  if (status !== 200) throw new Error(`GET /admin/courses -> ${status} ${JSON.stringify(body)}`)
  return Array.isArray(body) ? body : body.data
}

/** Polls `probe` until `done` holds for its value (no fixed sleeps); throws with the last value (or what `show` picks of it). */
export async function eventually<T>(probe: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 20_000, show: (v: T) => unknown = (v) => v): Promise<T> {
  const end = Date.now() + timeoutMs
  let last: T | undefined
  let lastError: unknown
  for (;;) {
    try {
      last = await probe()
      if (done(last)) return last
    } catch (e) {
      lastError = e
    }
    if (Date.now() > end) throw new Error(`${what}: last value ${JSON.stringify(last === undefined ? last : show(last))}${lastError ? `, last error ${String(lastError)}` : ''}`)
    await new Promise((r) => setTimeout(r, 300))
  }
}

/**
 * Reads a value of the stored cmi tree of one SCO by its element name (`cmi.core.lesson_location`,
 * `cmi.location`); the tree is stored as scorm-again renders it (`{ cmi: { core: ... } }`).
 */
export const cmiValue = (launch: ScormLaunch, item: string, element: string): unknown => {
  let v: unknown = launch.state[item]?.cmi
  for (const k of element.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined
  return v
}

// ---------- files made in the test ----------

/** A small valid one-page PDF (hand-made, with a correct cross-reference table). */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/**
 * A real WebM (VP8) video recorded by Chromium itself from a canvas (there is no ffmpeg on the CI
 * machine and no media file in the dependencies).
 */
export async function recordWebm(browser: Browser, ms: number): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    await page.setContent('<canvas id="c" width="64" height="48"></canvas>')
    const b64 = await page.evaluate(async (duration) => {
      const c = document.getElementById('c') as HTMLCanvasElement
      const ctx = c.getContext('2d')!
      const rec = new MediaRecorder(c.captureStream(10), { mimeType: 'video/webm;codecs=vp8' })
      const chunks: Blob[] = []
      rec.ondataavailable = (e) => chunks.push(e.data)
      let hue = 0
      const paint = setInterval(() => {
        ctx.fillStyle = `hsl(${(hue += 20) % 360} 80% 50%)`
        ctx.fillRect(0, 0, 64, 48)
      }, 50)
      rec.start()
      await new Promise((r) => setTimeout(r, duration))
      await new Promise((r) => {
        rec.onstop = r
        rec.stop()
      })
      clearInterval(paint)
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer())
      let s = ''
      for (const b of bytes) s += String.fromCharCode(b)
      return btoa(s)
    }, ms)
    return Buffer.from(b64, 'base64')
  } finally {
    await page.close()
  }
}

/** A valid zip of the given files (no imsmanifest.xml unless given). */
export function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new ZipFile()
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name)
  zip.end()
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c))
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)))
    zip.outputStream.on('error', reject)
  })
}

/** Random bytes that only claim to be a zip by their name. */
export const notAZip = (): Buffer => Buffer.concat([Buffer.from('this is not a zip archive\n'), randomBytes(2048)])

export const readFixture = (zip: string): Promise<Buffer> => readFile(fixturePath(zip))

// ---------- the content frames ----------

/*
 * Course content plays on its own origin (decision "content-origin"): the viewer frames the
 * content player (/player/ on the content origin), which holds the SCORM runtime and frames the
 * SCO (#sco, the package's launch page under /api/content/).
 */

/** The content player's frame, as a locator. */
export const playerLocator = (page: Page): FrameLocator => page.frameLocator('iframe[src*="/player/"]').first()

/** The SCO shown in the player (the package's launch page). */
export const contentFrame = (page: Page): FrameLocator => playerLocator(page).frameLocator('#sco')

/** The Golf examples' launch page shows each page of the SCO in its own `#contentFrame`. */
export const golfPage = (page: Page): FrameLocator => contentFrame(page).frameLocator('#contentFrame')

/** The content player's frame (the SCORM API objects live on its window), once there is one. */
export async function playerFrame(page: Page, timeoutMs = 20_000): Promise<Frame> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const frame = page.frames().find((f) => !f.isDetached() && /^https?:\/\/[^/]+\/player\/(index\.html)?([?#].*)?$/.test(f.url()))
    if (frame) return frame
    if (Date.now() > end)
      throw new Error(
        `no content player among ${page
          .frames()
          .map((f) => f.url())
          .join(', ')}`,
      )
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The SCORM run-time APIs a SCO finds on the player's window (2004's and 1.2's), as far as the journeys read them. */
type ScormWindow = { API_1484_11?: { GetValue(element: string): string }; API?: { LMSGetValue(element: string): string } }

/** A value of the open SCO's data model, read from the runtime in the player (undefined while no session runs). */
export async function runtimeValue(page: Page, element: string): Promise<string | undefined> {
  return (await playerFrame(page)).evaluate((el) => {
    const w = window as unknown as ScormWindow
    if (w.API_1484_11) return w.API_1484_11.GetValue(el)
    if (w.API) return w.API.LMSGetValue(el)
    return undefined
  }, element)
}

// ---------- admin: Courses tab ----------

type UploadFile = string | { name: string; mimeType: string; buffer: Buffer }

/**
 * Upload New Course through the form: title, optional "Assign to all users", the files through the
 * file picker, Upload. Waits for the course's row; with `mayBeRefused` a refusal shown in the form
 * (its message) is also accepted and returned, and the form is left with Cancel.
 */
export async function uploadCourse(page: Page, title: string, files: UploadFile[], opts: { assignToAll?: boolean; mayBeRefused?: boolean } = {}): Promise<string | null> {
  await page.getByRole('button', { name: 'Upload New Course' }).click()
  const form = page.getByRole('form', { name: 'Upload New Course' })
  await form.getByLabel('Course Title').fill(title)
  if (opts.assignToAll) await form.getByLabel('Assign to all users').check()
  const payloads = await Promise.all(files.map(async (f) => (typeof f === 'string' ? { name: basename(f), mimeType: 'application/zip', buffer: await readFile(f) } : f)))
  await form.getByLabel('Module Files').setInputFiles(payloads)
  await form
    .getByRole('listitem')
    .nth(files.length - 1)
    .waitFor()
  await form.getByRole('button', { name: 'Upload', exact: true }).click()
  const row = courseRow(page, title)
  if (!opts.mayBeRefused) {
    await row.waitFor({ timeout: 60_000 })
    return null
  }
  const refusal = form.getByRole('alert').first()
  await row.or(refusal).first().waitFor({ timeout: 60_000 })
  if (await row.isVisible()) return null
  const message = (await refusal.textContent()) ?? ''
  await form.getByRole('button', { name: 'Cancel', exact: true }).click()
  return message
}

/** The admin table's row of a course (its title is the row header). */
export const courseRow = (page: Page, title: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title, exact: true }) })

/** Assign dialog: search the learner, tick them, Assign. */
export async function assignCourse(page: Page, title: string, who: { email: string; name: string }): Promise<void> {
  await courseRow(page, title).getByRole('button', { name: 'Assign', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Search users').fill(who.email)
  await dialog.getByRole('checkbox', { name: new RegExp(who.name) }).check()
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click()
  await dialog.waitFor({ state: 'hidden' })
}

// ---------- learner: My Courses and the course viewer ----------

/** The My Courses card of a course. */
export const courseCard = (page: Page, title: string) => page.getByRole('region', { name: 'My Courses' }).getByRole('listitem', { name: title, exact: true })

/** From the dashboard: My Courses → View Course; waits for the viewer. */
export async function openCourse(page: Page, title: string): Promise<void> {
  if (!page.url().endsWith('/user-dashboard') || (await page.getByRole('button', { name: 'Close Course' }).isVisible())) await page.goto('/user-dashboard')
  await courseCard(page, title).getByRole('button', { name: 'View Course' }).click()
  await page.getByRole('button', { name: 'Close Course' }).waitFor()
}

/**
 * Close Course: the viewer first lets the content leave as on a page leave (its beforeunload and
 * unload run, the last commit goes out), then shows My Courses again.
 */
export async function closeCourse(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close Course' }).click()
  await page.getByRole('region', { name: 'My Courses' }).waitFor()
  await page.getByRole('button', { name: 'Close Course' }).waitFor({ state: 'detached' })
}

/** Leaves the viewer by loading another page: the content's unload handlers run and the last commit goes by beacon. */
export async function leaveViewer(page: Page): Promise<void> {
  await page.goto('/user-dashboard')
}

/**
 * Waits until the SCO in the frame has initialized its session (content calls LMSInitialize /
 * Initialize from its window's load event): leaving it earlier would rightly record nothing.
 */
export async function scoInitialized(page: Page): Promise<void> {
  await (
    await playerFrame(page)
  ).waitForFunction(
    () => {
      const w = window as unknown as ScormWindow
      // Both statuses always have a value once initialized, and answer '' before.
      if (w.API_1484_11) return w.API_1484_11.GetValue('cmi.completion_status') !== ''
      if (w.API) return w.API.LMSGetValue('cmi.core.lesson_status') !== ''
      return false
    },
    undefined,
    { polling: 100 },
  )
}

/** A SCO's button in the package's item tree (the viewer's "Lessons in this module"). */
export const lessonButton = (page: Page, title: string) => page.getByRole('navigation', { name: 'Lessons in this module' }).getByRole('button', { name: title, exact: true })

/** Opens a SCO of the package's item tree. */
export async function selectItem(page: Page, title: string): Promise<void> {
  await lessonButton(page, title).click()
}

/** The viewer's own Previous or Continue button of a sequenced package. */
export const flowButton = (page: Page, name: 'Previous' | 'Continue') => page.getByRole('group', { name: 'Lesson navigation' }).getByRole('button', { name, exact: true })

/**
 * Whether a button is offered: null when it is, else the text of the reason it describes itself
 * with (a locked lesson, Continue before the lesson is done: `aria-disabled` and `aria-describedby`).
 */
export async function lockedBecause(button: Locator): Promise<string | null> {
  if ((await button.getAttribute('aria-disabled')) !== 'true') return null
  const id = await button.getAttribute('aria-describedby')
  return id ? ((await button.page().locator(`[id="${id}"]`).textContent()) ?? '') : ''
}

/**
 * Makes the Golf launch page issue a navigation request as its own buttons do ("Skip to the Test",
 * "Exit"): adl.nav.request, then its unload routine, which sets cmi.exit and terminates. The
 * samples have no button for every request (their Exit button is commented out).
 */
export async function golfRequests(page: Page, request: string): Promise<void> {
  const launchPage = page.frames().find((f) => f.url().includes('/shared/launchpage.html'))
  if (!launchPage) throw new Error('no Golf launch page open')
  await launchPage.evaluate((r) => {
    const w = window as unknown as { ScormProcessSetValue(el: string, v: string): void; doUnload(pressedExit: boolean): void }
    w.ScormProcessSetValue('adl.nav.request', r)
    w.doUnload(true)
  }, request)
}

/** The Golf examples' Knowledge Check marks its right answers with `.correctAnswer`: pick them all and submit. */
export async function answerGolfQuiz(golf: FrameLocator): Promise<void> {
  await golf.getByRole('button', { name: 'Submit Answers' }).waitFor()
  for (const radio of await golf.locator('.correctAnswer input[type=radio]').all()) await radio.check()
  for (const box of await golf
    .locator('.correctAnswer')
    .filter({ has: golf.locator('input[type=text]') })
    .all()) {
    const expected = /\((\d+)\)/.exec((await box.textContent()) ?? '')?.[1] ?? ''
    await box.locator('input[type=text]').fill(expected)
  }
  await golf.getByRole('button', { name: 'Submit Answers' }).click()
}

/** One file of a zip (for the fixtures' own copies of libraries). */
export async function zipEntry(zipPath: string, name: string): Promise<Buffer> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(zipPath, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))))
  return new Promise<Buffer>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== name) return zip.readEntry()
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err)
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          zip.close()
          resolve(Buffer.concat(chunks))
        })
        stream.on('error', reject)
      })
    })
    zip.on('end', () => reject(new Error(`${name} not in ${zipPath}`)))
    zip.on('error', reject)
    zip.readEntry()
  })
}

/**
 * The Golf 4th edition package loads jQuery and jQuery UI from a public CDN, which the CI machine
 * cannot reach: the browser context gets them from the copies inside the debugger fixture instead
 * (jQuery 1.10.2, jQuery UI 1.11.0). The portal's own answers are untouched.
 */
export async function serveCdnFromFixtures(context: BrowserContext): Promise<void> {
  const zip = fixturePath('jleyva-scorm-debugger-scorm12.zip')
  const [jquery, jqueryUi] = await Promise.all([zipEntry(zip, 'jquery.min.js'), zipEntry(zip, 'jquery-ui.min.js')])
  await context.route('https://ajax.googleapis.com/ajax/libs/**', (route) => {
    const ui = route.request().url().includes('/jqueryui/')
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: ui ? jqueryUi : jquery })
  })
}

/** Polls `probe` until it answers `expected` (or `timeoutMs` passes) and returns its last answer, for a soft check. */
export async function settle<T>(probe: () => Promise<T>, expected: T, timeoutMs = 8_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await probe().catch(() => undefined as T)
    if (v === expected || Date.now() > end) return v
    await new Promise((r) => setTimeout(r, 250))
  }
}
