/**
 * What the browser downloads and when (issue 15 item 9, issue 30 item 7): gzip bytes of script as
 * Chromium receives them, and how many round trips deep the learner dashboard's data starts.
 *
 * - The shell's first load: the login page opened cold.
 * - Beyond the shell: every script a screen loads that is not one of the shell's first-load files
 *   (the remotes' containers, pages, their chunks and the shared singletons they bring, and any
 *   later chunk of the shell's own). Each mf-certifications first screen (technician profile,
 *   team, certification management, notifications, revenue entry) is opened cold (a new page load
 *   with the session, nothing cached) and held to +60 KB; the learner dashboard with all its
 *   remotes, reached by logging in, to +80 KB.
 * - Request-chain level: a request's level is 1 + the highest level among the requests that had
 *   finished before it was sent; the document is level 1. So the level counts the round trips it
 *   could have waited for one after another (an upper bound on its real dependency chain: a
 *   request is never counted shallower than it is). The learner dashboard's first data request
 *   (the first /api/ call that is not the session's own /api/auth/ one), in a cold load of
 *   /user-dashboard with a stored session, is held to level 4.
 *   The load is measured on an emulated network (DevTools Network.emulateNetworkConditions,
 *   CHAIN_LATENCY_MS = 150 ms from a request to its response headers, the round trip Lighthouse
 *   gives a phone; no bandwidth limit, so the bytes' timing is the machine's). On loopback a
 *   request the page sends beside others answers in well under a millisecond, so the page's own
 *   script gaps between two independent requests made the second look one round trip deeper
 *   (quiet-machine readings 4, 6, 4, 4): the figure measured the machine. With every round trip
 *   costing more than those gaps, a request is deeper only when it was sent after an answer it
 *   waited for. 40 ms was not enough here: on a 2-core machine the shell sent the session check
 *   and the last remote entry of the same turn up to 105 ms apart. The timing rule is kept rather
 *   than one computed from the requests' initiators: it needs no reading of the page's stack
 *   traces and cannot miss a wait (a request sent after an awaited answer is always deeper than
 *   it; a dashboard made to await a remote's manifest before its data read 5, 5). Each request's
 *   initiator type is listed with it. `node bench/first-screens.ts --chain N` measures only this
 *   level, N cold loads, and prints every reading.
 *
 * `node bench/first-screens.ts` measures a portal started here in single-node mode (built first
 * with `npm run build`) and exits non-zero when a budget is exceeded; `npm run bench` measures the
 * cluster with its own users.
 */
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { REMOTE_NAMES, RemoteRegistry, remoteFolder } from '@portal/contracts'

/** The budgets (issue 15 item 9, issue 30 item 7). */
export const REMOTE_FIRST_SCREEN_GOAL_BYTES = 60 * 1024
export const SHELL_FIRST_LOAD_GOAL_BYTES = 150 * 1024
export const LEARNER_DASHBOARD_GOAL_BYTES = 80 * 1024
export const DASHBOARD_DATA_LEVEL_GOAL = 4
/** The emulated round trip of the request-chain measure (see the file header). */
export const CHAIN_LATENCY_MS = 150

interface Account {
  email: string
  password: string
}

export interface ScreenFigures {
  path: string
  /** Script bytes beyond the shell's first load. */
  totalJsBytes: number
  goalBytes: number
  /** By the build that served them (`shell` for the shell's later chunks). */
  byRemote: Record<string, number>
  /** The part of byRemote that is a shared singleton (react-query, ...) the remote's build provided. */
  sharedSingletons: Record<string, number>
  files: { file: string; bytes: number; shared: boolean }[]
}

export interface ChainStep {
  url: string
  level: number
  /** Who sent it (DevTools' initiator type: parser, script, preload, other). */
  initiator: string
  startMs: number
  endMs: number | null
}

export interface FirstScreens {
  shellFirstLoadJsBytes: number
  screens: Record<string, ScreenFigures>
  /** The cold learner dashboard: its first data request's level, and every request with its level. */
  dashboardChain: { firstDataRequest: string | null; level: number | null; requests: ChainStep[] }
}

/** The script paths of the shared singletons each remote's build provides (its mf-manifest.json). */
async function sharedAssets(baseURL: string): Promise<Set<string>> {
  const registry = RemoteRegistry.parse(await (await fetch(`${baseURL}/remote-registry.json`)).json())
  const paths = new Set<string>()
  for (const { entry } of Object.values(registry.remotes)) {
    const manifestUrl = new URL(entry, baseURL)
    const manifest = (await (await fetch(manifestUrl)).json()) as { shared: { assets: { js: { sync: string[]; async: string[] } } }[] }
    for (const s of manifest.shared) for (const file of [...s.assets.js.sync, ...s.assets.js.async]) paths.add(new URL(file, manifestUrl).pathname)
  }
  return paths
}

/** The remote whose build served `path` (its folder appears in the path), else the shell. */
const ownerOf = (path: string): string => REMOTE_NAMES.find((name) => path.includes(`/${remoteFolder(name)}/`) || path.includes(`/${name}/`)) ?? 'shell'

/** The scripts `step` makes the page load, with their gzip bytes as received, once the network is idle. */
async function scriptBytes(page: Page, step: () => Promise<void>): Promise<{ path: string; bytes: number }[]> {
  const sizes: { path: string; bytes: number }[] = []
  const listener = async (req: import('playwright-core').Request) => {
    if (req.resourceType() !== 'script') return
    const s = await req.sizes().catch(() => undefined)
    if (s) sizes.push({ path: new URL(req.url()).pathname, bytes: s.responseBodySize })
  }
  page.on('requestfinished', listener)
  await step()
  await page.waitForLoadState('networkidle')
  await new Promise((r) => setTimeout(r, 500))
  page.off('requestfinished', listener)
  return sizes
}

const sum = (list: { bytes: number }[]) => list.reduce((a, s) => a + s.bytes, 0)

function screenFigures(path: string, goalBytes: number, loaded: { path: string; bytes: number }[], shellFiles: Set<string>, shared: Set<string>): ScreenFigures {
  const beyond = loaded.filter((s) => !shellFiles.has(s.path))
  const byRemote: Record<string, number> = {}
  const sharedSingletons: Record<string, number> = {}
  const files = beyond.map((s) => ({ file: s.path, bytes: s.bytes, shared: shared.has(s.path) }))
  for (const f of files) {
    const owner = ownerOf(f.file)
    byRemote[owner] = (byRemote[owner] ?? 0) + f.bytes
    if (f.shared) sharedSingletons[owner] = (sharedSingletons[owner] ?? 0) + f.bytes
  }
  return { path, totalJsBytes: sum(beyond), goalBytes, byRemote, sharedSingletons, files }
}

async function logIn(page: Page, account: Account, path: string) {
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await page.waitForURL(`**${path}`)
}

/**
 * Every request of `load` with its chain level (see the file header), from the DevTools protocol's
 * own clock, on a network of CHAIN_LATENCY_MS a round trip: a request's level is 1 + the highest
 * level of those finished before it was sent.
 */
async function requestChain(page: Page, load: () => Promise<void>): Promise<ChainStep[]> {
  const cdp = await page.context().newCDPSession(page)
  const sent = new Map<string, { url: string; t: number; initiator: string }>()
  const ended = new Map<string, number>()
  const headers = new Map<string, number>()
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!e.request.url.startsWith('data:') && !sent.has(e.requestId)) sent.set(e.requestId, { url: e.request.url, t: e.timestamp, initiator: e.initiator.type })
  })
  cdp.on('Network.responseReceived', (e) => headers.set(e.requestId, e.timestamp))
  cdp.on('Network.loadingFinished', (e) => ended.set(e.requestId, e.timestamp))
  cdp.on('Network.loadingFailed', (e) => ended.set(e.requestId, e.timestamp))
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: CHAIN_LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 })
  await load()
  await page.waitForLoadState('networkidle')
  await cdp.detach()
  const requests = [...sent.entries()].map(([id, r]) => ({ ...r, id, end: ended.get(id) ?? null })).sort((a, b) => a.t - b.t)
  // The emulation must have held: the document's answer came no sooner than the round trip.
  const doc = requests[0]
  const docHeaders = doc && headers.get(doc.id)
  if (!doc || docHeaders === undefined || (docHeaders - doc.t) * 1000 < CHAIN_LATENCY_MS * 0.9)
    throw new Error(
      `the emulated ${CHAIN_LATENCY_MS} ms round trip did not apply to the document (${doc && docHeaders !== undefined ? `${Math.round((docHeaders - doc.t) * 1000)} ms` : 'no answer'})`,
    )
  const t0 = doc.t
  const steps: ChainStep[] = []
  for (const r of requests) {
    const before = steps.filter((s, i) => requests[i]!.end !== null && requests[i]!.end! <= r.t)
    steps.push({
      url: r.url,
      level: 1 + Math.max(0, ...before.map((s) => s.level)),
      initiator: r.initiator,
      startMs: Math.round((r.t - t0) * 1000),
      endMs: r.end === null ? null : Math.round((r.end - t0) * 1000),
    })
  }
  return steps
}

/** A data request of a page: an /api/ call other than the session's own (/api/auth/...). */
const isDataRequest = (url: string) => {
  const path = new URL(url).pathname
  return path.startsWith('/api/') && !path.startsWith('/api/auth/')
}

/**
 * A new page load with a fresh session of `account`, nothing cached. Fresh each time: a session's
 * refresh token is used once, so a stored one cannot open two pages.
 */
async function cold<T>(browser: Browser, baseURL: string, account: Account, run: (page: Page) => Promise<T>): Promise<T> {
  const login = await browser.newContext({ baseURL })
  const loginPage = await login.newPage()
  loginPage.setDefaultTimeout(30_000)
  await loginPage.goto('/login')
  await logIn(loginPage, account, 'dashboard')
  const storageState = await login.storageState()
  await login.close()
  const context = await browser.newContext({ baseURL, storageState })
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  try {
    return await run(page)
  } finally {
    await context.close()
  }
}

/** The cold learner dashboard's requests with their levels (see the file header), and its first data request. */
export async function measureDashboardChain(browser: Browser, baseURL: string, learner: Account): Promise<FirstScreens['dashboardChain']> {
  const requests = await cold(browser, baseURL, learner, (page) =>
    requestChain(page, async () => {
      await page.goto('/user-dashboard')
      await page.locator('main #cert-tracking-title').first().waitFor()
    }),
  )
  const first = requests.find((r) => isDataRequest(r.url)) ?? null
  return { firstDataRequest: first?.url ?? null, level: first?.level ?? null, requests }
}

/**
 * Measures the shell's first load, the learner dashboard reached by logging in, each
 * mf-certifications first screen opened cold, and the cold learner dashboard's request chain, in
 * fresh contexts of `browser`. The team dashboard is opened by `manager` (the admin when none).
 */
export async function measureFirstScreens(browser: Browser, baseURL: string, learner: Account, admin: Account, manager: Account = admin): Promise<FirstScreens> {
  const shared = await sharedAssets(baseURL)
  const screens: FirstScreens['screens'] = {}
  // The shell's first load, then the learner dashboard with all its remotes, reached by logging in.
  // Done when its last piece shows: the certification cards come from a second remote (found by
  // CSS, not role: a dialog over the page, Complete Your Profile, makes it inert, still shown).
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  const shell = await scriptBytes(page, () => page.goto('/login').then(() => undefined))
  const shellFiles = new Set(shell.map((s) => s.path))
  const after = await scriptBytes(page, async () => {
    await logIn(page, learner, '/user-dashboard')
    await page.locator('main #cert-tracking-title').first().waitFor()
  })
  screens.learnerDashboard = screenFigures('/user-dashboard', LEARNER_DASHBOARD_GOAL_BYTES, after, shellFiles, shared)
  await context.close()

  const certificationScreens = [
    ['technicianProfile', learner, '/technician/profile'],
    ['team', manager, '/manager/dashboard'],
    ['certificationManagement', admin, '/admin/certifications'],
    ['notifications', admin, '/admin/certification-notifications'],
    ['revenueEntry', admin, '/admin/revenue-entry'],
  ] as const
  for (const [name, account, path] of certificationScreens) {
    const loaded = await cold(browser, baseURL, account, (page) =>
      scriptBytes(page, async () => {
        await page.goto(path)
        await page.locator('main h1').first().waitFor()
      }),
    )
    screens[name] = screenFigures(path, REMOTE_FIRST_SCREEN_GOAL_BYTES, loaded, shellFiles, shared)
  }

  return { shellFirstLoadJsBytes: sum(shell), screens, dashboardChain: await measureDashboardChain(browser, baseURL, learner) }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`

/** Each budget with its figure: [label, figure, goal, met]. */
export function budgets(f: FirstScreens): { label: string; figure: string; goal: string; met: boolean }[] {
  const rows = [
    {
      label: 'shell first-load JS (gz)',
      figure: kb(f.shellFirstLoadJsBytes),
      goal: `<= ${kb(SHELL_FIRST_LOAD_GOAL_BYTES)}`,
      met: f.shellFirstLoadJsBytes <= SHELL_FIRST_LOAD_GOAL_BYTES,
    },
  ]
  for (const [name, s] of Object.entries(f.screens))
    rows.push({ label: `${name} ${s.path} beyond the shell`, figure: `+${kb(s.totalJsBytes)}`, goal: `<= +${kb(s.goalBytes)}`, met: s.totalJsBytes <= s.goalBytes })
  const level = f.dashboardChain.level
  rows.push({
    label: 'learner dashboard first data request level',
    figure: level === null ? 'none seen' : String(level),
    goal: `<= ${DASHBOARD_DATA_LEVEL_GOAL}`,
    met: level !== null && level <= DASHBOARD_DATA_LEVEL_GOAL,
  })
  return rows
}

/** The figures as lines of the bench summary: each budget, then each screen by remote. */
export function formatFirstScreens(f: FirstScreens): string {
  const lines = budgets(f).map((b) => `${b.label.padEnd(66)}${b.figure.padStart(10)} (goal ${b.goal})${b.met ? '' : ' OVER'}`)
  for (const [name, s] of Object.entries(f.screens)) {
    const parts = Object.entries(s.byRemote)
      .sort()
      .map(([owner, bytes]) => `${owner} +${kb(bytes)}${s.sharedSingletons[owner] ? ` (of which shared singletons ${kb(s.sharedSingletons[owner])})` : ''}`)
    lines.push(`  ${name}: ${parts.join(', ')}`)
  }
  const first = f.dashboardChain.requests.find((r) => r.url === f.dashboardChain.firstDataRequest)
  if (first) {
    lines.push(`  learner dashboard chain up to ${new URL(first.url).pathname} (${CHAIN_LATENCY_MS} ms a round trip):`)
    for (const r of f.dashboardChain.requests.filter((r) => r.startMs <= first.startMs))
      lines.push(`    L${r.level} ${String(r.startMs).padStart(5)}-${String(r.endMs ?? '?').padStart(5)} ms ${r.initiator.padEnd(7)} ${new URL(r.url).pathname}`)
  }
  return lines.join('\n')
}

// Alone: a single-node portal on a free port with the demo accounts; non-zero when a budget is
// exceeded. `--chain N`: only the learner dashboard's level, N cold loads, every reading printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util')
  const { startPortal } = await import('../e2e/portal.ts')
  const { launchBrowser } = await import('../e2e/browser.ts')
  const { values } = parseArgs({ options: { chain: { type: 'string' } } })
  const learner = { email: 'tech.seattle@example.com', password: 'Tech1234!' }
  const portal = await startPortal(process.execPath, ['launcher/src/main.ts'])
  const browser = await launchBrowser()
  try {
    if (values.chain !== undefined) {
      const levels: (number | null)[] = []
      for (let i = 0; i < Number(values.chain); i++) {
        const chain = await measureDashboardChain(browser, portal.baseURL, learner)
        levels.push(chain.level)
        console.log(`run ${i + 1}: level ${chain.level ?? 'none seen'}`)
        const first = chain.requests.find((r) => r.url === chain.firstDataRequest)
        for (const r of chain.requests.filter((r) => !first || r.startMs <= first.startMs))
          console.log(`  L${r.level} ${String(r.startMs).padStart(5)}-${String(r.endMs ?? '?').padStart(5)} ms ${r.initiator.padEnd(7)} ${new URL(r.url).pathname}`)
      }
      console.log(`learner dashboard first data request levels: ${levels.join(', ')} (goal <= ${DASHBOARD_DATA_LEVEL_GOAL})`)
      if (levels.some((l) => l === null || l > DASHBOARD_DATA_LEVEL_GOAL)) process.exitCode = 1
    } else {
      const figures = await measureFirstScreens(
        browser,
        portal.baseURL,
        learner,
        { email: 'admin@example.com', password: 'Admin123!' },
        { email: 'manager@example.com', password: 'Manager123!' },
      )
      console.log(formatFirstScreens(figures))
      console.log(JSON.stringify(figures))
      const over = budgets(figures).filter((b) => !b.met)
      if (over.length) {
        console.error(`over budget: ${over.map((b) => `${b.label} ${b.figure} (goal ${b.goal})`).join('; ')}`)
        process.exitCode = 1
      }
    }
  } finally {
    await browser.close()
    await portal.stop()
  }
}
