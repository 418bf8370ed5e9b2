// The demo lesson in headless Chromium under scorm-again's real SCORM 1.2 API: first visit, exit
// with suspend, resume at the saved page, completion on the last page.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SCORM_DIR } from './demo-course.ts'

const SCORM_AGAIN = fileURLToPath(new URL('../../../node_modules/scorm-again/dist/scorm12.js', import.meta.url))
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.xml': 'application/xml' }
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; frame-src 'self'"

// The LMS side: scorm-again's Scorm12API in the parent window, state passed in the URL hash,
// LMSFinish calls counted. The lesson itself is served under the strict CSP content may get.
const HOST = `<!DOCTYPE html><html><head><script src="/scorm12.js"></script></head><body><div id="frame"></div><script>
  window.finishes = 0
  window.API = new Scorm12API({ autocommit: false, logLevel: 5 })
  const saved = location.hash ? JSON.parse(decodeURIComponent(location.hash.slice(1))) : null
  if (saved) window.API.loadFromJSON(saved)
  window.API.on('LMSFinish', () => { window.finishes++ })
  const frame = document.createElement('iframe')
  frame.src = '/sco/index.html'
  frame.name = 'sco'
  document.getElementById('frame').appendChild(frame)
</script></body></html>`

let server: Server
let base: string
let browser: Browser

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname
    try {
      if (path === '/favicon.ico') return void res.writeHead(204).end()
      if (path === '/host.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(HOST)
      if (path === '/scorm12.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(await readFile(SCORM_AGAIN))
      if (path.startsWith('/sco/')) {
        const rel = normalize(decodeURIComponent(path.slice('/sco/'.length)))
        if (rel.startsWith('..')) return void res.writeHead(404).end()
        const body = await readFile(join(DEMO_SCORM_DIR, rel))
        return void res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'content-security-policy': CSP }).end(body)
      }
      res.writeHead(404).end()
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
}, 30_000)
afterAll(async () => {
  await browser?.close()
  await new Promise((r) => server?.close(r))
})

/** The host page's window: scorm-again's SCORM 1.2 API (the part the test reads) and how many times LMSFinish ran. */
type HostWindow = typeof window & { API: { cmi: unknown; isInitialized(): boolean; isTerminated(): boolean; lastErrorCode: string }; finishes: number }

/** A cmi element as the LMS would store it (the JSON rendering includes write-only elements such as exit). */
const cmi = (page: Page, path: string) =>
  page.evaluate(
    (p) =>
      p
        .split('.')
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | null | undefined)?.[k], JSON.parse(JSON.stringify((window as HostWindow).API.cmi)))
        ?.toString(),
    path,
  )
const lesson = (page: Page) => page.frameLocator('iframe[name="sco"]')

/** Opens the host page and waits until the lesson initialized the API. */
async function open(page: Page, saved?: unknown) {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto(`${base}/host.html${saved ? `#${encodeURIComponent(JSON.stringify(saved))}` : ''}`)
  await expect.poll(() => page.evaluate(() => (window as HostWindow).API.isInitialized())).toBe(true)
  return errors
}

/** Removes the lesson frame (as the viewer does when a module closes). */
const close = (page: Page) => page.evaluate(() => document.querySelector('iframe[name="sco"]')!.remove())

describe('the demo SCORM 1.2 lesson', () => {
  it('saves its place, suspends when left unfinished, resumes there and completes on the last page', async () => {
    const page = await browser.newPage()
    const errors = await open(page)
    await expect.poll(() => lesson(page).getByRole('status').first().textContent()).toBe('Page 1 of 4')
    expect(await cmi(page, 'core.lesson_status')).toBe('incomplete')
    await lesson(page).getByRole('button', { name: 'Next' }).click()
    await lesson(page).getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => cmi(page, 'core.lesson_location')).toBe('2')
    expect(await cmi(page, 'suspend_data')).toBe('visited=0,1,2')
    expect(await lesson(page).getByRole('heading', { level: 1 }).textContent()).toBe('Field Safety Essentials')
    await expect.poll(() => lesson(page).frameLocator('#page').getByRole('heading').textContent()).toBe('Protective equipment')

    await close(page)
    await expect.poll(() => page.evaluate(() => (window as HostWindow).finishes)).toBe(1)
    expect(await cmi(page, 'core.exit')).toBe('suspend')
    expect(await cmi(page, 'core.session_time')).toMatch(/^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/)
    expect(await page.evaluate(() => (window as HostWindow).API.isTerminated())).toBe(true)
    expect(await page.evaluate(() => (window as HostWindow).API.lastErrorCode)).toBe('0')
    expect(errors).toEqual([])

    // Next launch: the stored state comes back with entry = resume.
    const resumed = await browser.newPage()
    const resumedErrors = await open(resumed, {
      core: { lesson_location: '2', lesson_status: 'incomplete', entry: 'resume' },
      suspend_data: 'visited=0,1,2',
    })
    await expect.poll(() => lesson(resumed).getByRole('status').first().textContent()).toBe('Page 3 of 4')
    await lesson(resumed).getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => cmi(resumed, 'core.lesson_status')).toBe('completed')
    expect(await cmi(resumed, 'core.score.raw')).toBe('100')
    expect(await cmi(resumed, 'core.lesson_location')).toBe('3')
    expect(await lesson(resumed).getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    await close(resumed)
    await expect.poll(() => resumed.evaluate(() => (window as HostWindow).finishes)).toBe(1)
    expect(await cmi(resumed, 'core.exit')).toBe('')
    expect(resumedErrors).toEqual([])
  }, 30_000)
})
