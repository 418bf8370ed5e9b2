/**
 * What the browser downloads (issue 15 item 9): the shell's first load (the login page), then the
 * JavaScript each remote adds to the first screen a learner and an admin land on, and to a learner's
 * technician profile opened cold (mf_certifications first on the page), gzip bytes as
 * received, beside the +60 KB goal per remote. `node bench/first-screens.ts` measures a portal
 * started here in single-node mode (built first with `npm run build`); `npm run bench` measures
 * the cluster with its own users.
 */
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { REMOTE_NAMES, RemoteRegistry, remoteFolder } from '@portal/contracts'

/** The goal per remote on a first screen (issue 15 item 9), and the shell's first load. */
export const REMOTE_FIRST_SCREEN_GOAL_BYTES = 60 * 1024
export const SHELL_FIRST_LOAD_GOAL_BYTES = 150 * 1024

interface Account {
  email: string
  password: string
}

export interface FirstScreens {
  shellFirstLoadJsBytes: number
  /**
   * Per screen: the bytes after login, by remote (`shell` for the shell's own later chunks), with
   * `sharedSingletons` the part of them that is a shared singleton (react-query) the remote's build
   * provided: a page loads it once, from whichever remote comes first.
   */
  screens: Record<
    'learner' | 'admin' | 'technicianProfile',
    { path: string; totalJsBytes: number; byRemote: Record<string, number>; sharedSingletons: Record<string, number>; files: { file: string; bytes: number; shared: boolean }[] }
  >
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

/** The remote whose build served `url` (its folder appears in the path), else the shell. */
const ownerOf = (url: string): string => {
  const path = new URL(url).pathname
  return REMOTE_NAMES.find((name) => path.includes(`/${remoteFolder(name)}/`) || path.includes(`/${name}/`)) ?? 'shell'
}

async function scriptBytes(page: Page, step: () => Promise<void>): Promise<{ url: string; bytes: number }[]> {
  const sizes: { url: string; bytes: number }[] = []
  const listener = async (req: import('playwright-core').Request) => {
    if (req.resourceType() !== 'script') return
    const s = await req.sizes().catch(() => undefined)
    if (s) sizes.push({ url: req.url(), bytes: s.responseBodySize })
  }
  page.on('requestfinished', listener)
  await step()
  await page.waitForLoadState('networkidle')
  await new Promise((r) => setTimeout(r, 500))
  page.off('requestfinished', listener)
  return sizes
}

const sum = (list: { bytes: number }[]) => list.reduce((a, s) => a + s.bytes, 0)

/** Measures the shell's first load and each role's first screen in fresh contexts of `browser`. */
export async function measureFirstScreens(browser: Browser, baseURL: string, learner: Account, admin: Account): Promise<FirstScreens> {
  const shared = await sharedAssets(baseURL)
  let shellFirstLoadJsBytes = 0
  const screens = {} as FirstScreens['screens']
  // Each screen is done when its last piece shows: the learner's certification cards come from a second remote.
  const screensToMeasure = [
    ['learner', learner, '/user-dashboard', 'main #cert-tracking-title'],
    ['admin', admin, '/admin-dashboard', 'main h1'],
  ] as const
  for (const [role, account, path, lastPiece] of screensToMeasure) {
    const context = await browser.newContext({ baseURL })
    const page = await context.newPage()
    page.setDefaultTimeout(30_000)
    const shell = await scriptBytes(page, () => page.goto('/login').then(() => undefined))
    shellFirstLoadJsBytes = sum(shell)
    const after = await scriptBytes(page, async () => {
      await page.getByLabel('Email').fill(account.email)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Log In' }).click()
      await page.waitForURL(`**${path}`)
      // Found by CSS, not role: a dialog over the page (Complete Your Profile) makes it inert, still shown.
      await page.locator(lastPiece).first().waitFor()
    })
    screens[role] = screenFigures(path, after, shared)
    if (role === 'learner') {
      // The technician profile opened cold: a new page load with the session, nothing cached, so
      // mf_certifications is the first remote and brings its container and singletons itself.
      const cold = await browser.newContext({ baseURL, storageState: await context.storageState() })
      const profilePage = await cold.newPage()
      profilePage.setDefaultTimeout(30_000)
      const loaded = await scriptBytes(profilePage, async () => {
        await profilePage.goto('/technician/profile')
        await profilePage.locator('main h1', { hasText: 'My Technician Profile' }).waitFor()
      })
      screens.technicianProfile = screenFigures(
        '/technician/profile',
        loaded.filter((s) => ownerOf(s.url) !== 'shell'),
        shared,
      )
      await cold.close()
    }
    await context.close()
  }
  return { shellFirstLoadJsBytes, screens }
}

function screenFigures(path: string, loaded: { url: string; bytes: number }[], shared: Set<string>): FirstScreens['screens']['learner'] {
  const byRemote: Record<string, number> = {}
  const sharedSingletons: Record<string, number> = {}
  const files = loaded.map((s) => ({ file: new URL(s.url).pathname, bytes: s.bytes, shared: shared.has(new URL(s.url).pathname) }))
  for (const [i, s] of loaded.entries()) {
    const owner = ownerOf(s.url)
    byRemote[owner] = (byRemote[owner] ?? 0) + s.bytes
    if (files[i]!.shared) sharedSingletons[owner] = (sharedSingletons[owner] ?? 0) + s.bytes
  }
  return { path, totalJsBytes: sum(loaded), byRemote, sharedSingletons, files }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`

/** The figures as lines of the bench summary. */
export function formatFirstScreens(f: FirstScreens): string {
  const lines = [`shell first-load JS (gz)                ${kb(f.shellFirstLoadJsBytes)} (goal <= ${kb(SHELL_FIRST_LOAD_GOAL_BYTES)})`]
  for (const [role, s] of Object.entries(f.screens)) {
    for (const [owner, bytes] of Object.entries(s.byRemote).sort()) {
      const singletons = s.sharedSingletons[owner] ?? 0
      const own = bytes - singletons
      const goal = owner === 'shell' ? '' : ` (goal <= +${kb(REMOTE_FIRST_SCREEN_GOAL_BYTES)}${bytes > REMOTE_FIRST_SCREEN_GOAL_BYTES ? ', OVER' : ''})`
      const split = singletons
        ? `; its own code +${kb(own)}${own > REMOTE_FIRST_SCREEN_GOAL_BYTES ? ' (OVER)' : ''}, shared singletons it provided for the page +${kb(singletons)}`
        : ''
      lines.push(`${`${role} first screen: ${owner}`.padEnd(40)}+${kb(bytes)}${goal}${split}`)
    }
  }
  return lines.join('\n')
}

// Alone: a single-node portal on a free port with the demo accounts.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startPortal } = await import('../e2e/portal.ts')
  const { launchBrowser } = await import('../e2e/browser.ts')
  const portal = await startPortal(process.execPath, ['launcher/src/main.ts'])
  const browser = await launchBrowser()
  try {
    const figures = await measureFirstScreens(
      browser,
      portal.baseURL,
      { email: 'tech.seattle@example.com', password: 'Tech1234!' },
      { email: 'admin@example.com', password: 'Admin123!' },
    )
    console.log(formatFirstScreens(figures))
    console.log(JSON.stringify(figures))
  } finally {
    await browser.close()
    await portal.stop()
  }
}
