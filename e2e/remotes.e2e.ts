/**
 * A remote deploys on its own (issue 18): in cluster mode, mf-exams is rebuilt and its static
 * server restarted with the new build while the shell, the gateway, the services and the other
 * remotes keep running untouched.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REMOTE_NAMES, REMOTES, remoteFolder } from '@portal/contracts'
import { registerUsers } from '../bench/exams.ts'
import { BENCH_NATS, BENCH_PG, startSmtpSink } from '../bench/support.ts'
import { startCluster } from 'launcher/cluster'
import { launchBrowser, watchErrors } from './browser.ts'
import { freePort } from './portal.ts'
import { buildRemote, type SourcePatch } from './remote-build.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const examsDist = join(root, 'mf-exams', 'dist')
const HASHED = /\.[0-9a-f]{8,}\.js$/

/** The next version of mf-exams: a visible change on the exam's intro and on its results. */
const VERSION_2: SourcePatch[] = [
  { file: 'exam/Intro.tsx', from: 'The timer starts when', to: 'Version 2 of the exams remote. The timer starts when' },
  { file: 'results/ResultsView.tsx', from: 'Scores by Category', to: 'Scores by Category (version 2)' },
]

/** Submits the running exam the way a learner does: Review and Submit, Submit Exam, then its confirmation. */
async function submitThroughReview(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Current question' }).getByRole('button', { name: 'Review and Submit' }).click()
  await page.getByRole('region', { name: 'Review Your Answers' }).getByRole('button', { name: 'Submit Exam' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Submit Exam' }).click()
}

let cluster: Awaited<ReturnType<typeof startCluster>>
let smtp: Awaited<ReturnType<typeof startSmtpSink>>
let browser: Browser
let scratch: string
let learner: { email: string; password: string }
let examId: number
let v2: string
let examsServer: string
const examName = `Ladder Safety (redeploy ${Date.now()})`

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'portal-remotes-'))
  smtp = await startSmtpSink()
  const adminCode = randomBytes(12).toString('base64url')
  const ports: number[] = []
  for (let i = 0; i < 4 + REMOTE_NAMES.length; i++) ports.push(await freePort())
  const [gatewayPort, identity, learning, notify, ...remotePorts] = ports as [number, number, number, number, ...number[]]
  cluster = await startCluster({
    env: {
      DATABASE_URL: BENCH_PG,
      NATS_URL: BENCH_NATS,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      COMPANY_EMAIL_DOMAIN: 'example.com',
      ADMIN_REGISTRATION_CODE: adminCode,
      LOG_LEVEL: 'warn',
      DATA_DIR: join(scratch, 'data'),
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      // The cluster's identity database is the bench's: registrations from this machine by an
      // earlier `npm run bench` within the hour must not refuse this journey's learner.
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000',
    },
    gatewayPort,
    ports: { identity, learning, notify },
    remotePorts: Object.fromEntries(REMOTE_NAMES.map((name, i) => [name, remotePorts[i]!])),
    quiet: true,
  })
  examsServer = `http://127.0.0.1:${remotePorts[REMOTE_NAMES.indexOf('mf_exams')]}`
  const users = await registerUsers({ gatewayUrl: cluster.url, mails: smtp.mails, adminCode }, 1)
  learner = { email: users.emails[1]!, password: users.password }
  const res = await fetch(`${cluster.url}/api/exams`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${users.adminToken}` },
    body: JSON.stringify({
      name: examName,
      time_limit: 30,
      pass_score: 50,
      total_questions: 1,
      subject_categories: ['Ladders'],
      exam_type: 'practice',
      is_assigned_to_all: true,
      questions: [
        {
          question_type: 'multiple_choice',
          question_text: 'How far should a ladder extend above the landing?',
          options: ['One foot', 'Three feet'],
          correct_answer: 1,
          subject_category: 'Ladders',
        },
      ],
    }),
  })
  if (!res.ok) throw new Error(`creating the exam: ${res.status} ${await res.text()}`)
  examId = ((await res.json()) as { id: number }).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await cluster?.close()
  smtp?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

async function signedIn(): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: cluster.url })).newPage()
  page.setDefaultTimeout(15_000)
  await page.goto('/login')
  await page.getByLabel('Email').fill(learner.email)
  await page.getByLabel('Password', { exact: true }).fill(learner.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await page.waitForURL('**/user-dashboard')
  return page
}

/** Every file of a build, relative to it (`assets/main.0123456789.js`). */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)))
}

/** What shows that a deployable was not rebuilt or restarted: process ids, served ETags, build files' times. */
async function untouchedState() {
  const served: Record<string, string | null> = {}
  const paths = [
    '/',
    ...REMOTE_NAMES.filter((n) => n !== 'mf_exams').flatMap((n) => [`/remotes/${remoteFolder(n)}/mf-manifest.json`, `/remotes/${remoteFolder(n)}/remoteEntry.js`]),
  ]
  for (const path of paths) served[path] = (await fetch(cluster.url + path)).headers.get('etag')
  served['/remote-registry.json'] = await (await fetch(`${cluster.url}/remote-registry.json`)).text()
  const mtimes: Record<string, number> = {}
  for (const folder of ['shell', ...REMOTE_NAMES.map(remoteFolder).filter((f) => f !== 'mf-exams')])
    for (const file of await filesOf(join(root, folder, 'dist'))) mtimes[`${folder}/${file}`] = (await stat(join(root, folder, 'dist', file))).mtimeMs
  const { 'mf-exams': examsPid, ...pids } = cluster.pids()
  return { examsPid, untouched: { pids, served, mtimes } }
}

/** The files of mf-exams a page asks the gateway for, from now on. */
function examsRequests(page: Page) {
  const seen: { file: string; status: number }[] = []
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname
    if (path.startsWith('/remotes/mf-exams/')) seen.push({ file: path.slice('/remotes/mf-exams/'.length), status: r.status() })
  })
  return seen
}

describe('a remote deploys on its own (cluster mode)', () => {
  it('a new mf-exams shows on the next page load; a page already open finishes on the build it loaded; nothing else was rebuilt or restarted', async () => {
    const before = await untouchedState()
    const page = await signedIn()
    const errors = watchErrors(page)
    await page.goto(`/exam/${examId}`)
    await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    await page.getByText('The timer starts when').waitFor()
    expect(await page.getByText('Version 2 of the exams remote').count()).toBe(0)

    // The exams team builds its next version and redeploys its server alone.
    v2 = join(scratch, 'mf-exams-v2')
    await buildRemote('mf-exams', v2, VERSION_2)
    const [oldFiles, newFiles] = [await filesOf(examsDist), await filesOf(v2)]
    const manifest = JSON.parse(await readFile(join(v2, 'mf-manifest.json'), 'utf8')) as { exposes: { assets: { js: { sync: string[] } } }[] }
    const referenced = manifest.exposes.flatMap((e) => e.assets.js.sync)
    for (const file of referenced) {
      expect(file).toMatch(HASHED)
      expect(newFiles).toContain(file)
    }
    expect(referenced.filter((f) => !oldFiles.includes(f)).length).toBeGreaterThan(0) // the changed chunks have new names
    const open = examsRequests(page)
    await cluster.restart('mf-exams', { STATIC_DIR: v2, STATIC_PREVIOUS_DIRS: examsDist })

    // The page loaded before the redeploy takes the exam to its results on the old build: the
    // results chunk it had not fetched yet is the old one, still served.
    await page.getByRole('button', { name: 'Start Exam' }).click()
    const current = page.getByRole('region', { name: 'Current question' })
    await current.getByLabel('Three feet').check()
    await submitThroughReview(page)
    await page.waitForURL('**/exam-results')
    await page.getByRole('heading', { name: 'Scores by Category', exact: true }).waitFor()
    expect(open.length).toBeGreaterThan(0)
    for (const r of open) {
      expect(oldFiles, r.file).toContain(r.file)
      expect(r.status, r.file).toBe(200)
    }
    expect(
      open.some((r) => !newFiles.includes(r.file)),
      'a chunk only the old build has',
    ).toBe(true)

    // The next page load is the new build, all of it.
    const next = examsRequests(page)
    await page.goto(`/exam/${examId}`)
    await page.getByText('Version 2 of the exams remote. The timer starts when').waitFor()
    for (const r of next) expect(newFiles, r.file).toContain(r.file)
    expect(next.map((r) => r.file)).toContain('mf-manifest.json')
    expect(errors).toEqual([])

    const after = await untouchedState()
    expect(after.examsPid).not.toBe(before.examsPid)
    expect(after.untouched).toEqual(before.untouched)
    await page.context().close()
  })

  it('a remote built against another major version of its contract shows its fallback inside the portal, not a blank page', async () => {
    const major2 = join(scratch, 'mf-exams-major-2')
    await buildRemote('mf-exams', major2, [{ file: 'src/ExamPage.tsx', from: 'export const contract = REMOTES.mf_exams.version', to: "export const contract = '2.0'" }])
    await cluster.restart('mf-exams', { STATIC_DIR: major2, STATIC_PREVIOUS_DIRS: '' })
    const page = await signedIn()
    const logged: string[] = []
    page.on('console', (m) => logged.push(m.text()))
    await page.goto(`/exam/${examId}`)
    await page.getByRole('alert').getByText('This part of the portal could not be loaded.').waitFor()
    await page.getByRole('button', { name: 'Try Again' }).waitFor()
    await page.getByRole('button', { name: 'Logout' }).waitFor()
    expect(await page.getByRole('heading', { level: 1, name: examName }).count()).toBe(0)
    expect(logged.join('\n')).toContain(`built against contract 2.0, the shell speaks ${REMOTES.mf_exams.version}`)

    // Back to a compatible build: the next page load works again.
    await cluster.restart('mf-exams', { STATIC_DIR: examsDist })
    await page.reload()
    await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    await page.context().close()
  })

  it('a page already open whose remote was redeployed without its old chunks shows the fallback, not a blank page', async () => {
    const page = await signedIn()
    await page.goto(`/exam/${examId}`)
    await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    await cluster.restart('mf-exams', { STATIC_DIR: v2, STATIC_PREVIOUS_DIRS: '' })
    await page.getByRole('button', { name: 'Start Exam' }).click()
    const current = page.getByRole('region', { name: 'Current question' })
    await current.getByLabel('Three feet').check()
    await submitThroughReview(page)
    await page.waitForURL('**/exam-results')
    await page.getByRole('alert').getByText('This part of the portal could not be loaded.').waitFor()
    await page.getByRole('button', { name: 'Logout' }).waitFor()
    // Reloading picks up the new build whole.
    await page.goto(`/exam/${examId}`)
    await page.getByText('Version 2 of the exams remote').waitFor()
    await page.context().close()
  })

  it('a remote moved to an origin of its own is a configuration change: the registry points there, the CSP lets it in, its server answers CORS', async () => {
    await cluster.restart('mf-exams', { STATIC_DIR: examsDist, STATIC_PREVIOUS_DIRS: '', CORS_ORIGINS: cluster.url })
    await cluster.restart('gateway', { REMOTE_MF_EXAMS_PUBLIC_URL: examsServer })
    const registry = await fetch(`${cluster.url}/remote-registry.json`)
    expect(((await registry.json()) as { remotes: Record<string, { entry: string }> }).remotes.mf_exams!.entry).toBe(`${examsServer}/mf-manifest.json`)
    expect(registry.headers.get('content-security-policy')).toContain(`script-src 'self' ${examsServer}`)

    const page = await signedIn()
    const errors = watchErrors(page)
    const fromExamsServer: string[] = []
    page.on('response', (r) => {
      if (r.url().startsWith(examsServer)) fromExamsServer.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    const logged: string[] = []
    page.on('console', (m) => logged.push(m.text()))
    await page.goto(`/exam/${examId}`)
    await page.getByRole('heading', { level: 1, name: examName }).waitFor()
    expect(fromExamsServer).toContain('200 /mf-manifest.json')
    expect(fromExamsServer.some((r) => /^200 \/assets\/__federation_expose_ExamPage\.[0-9a-f]+\.js$/.test(r))).toBe(true)
    expect(logged.filter((l) => /Content Security Policy|CORS/.test(l))).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
