import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame, Page } from 'playwright-core'
import type { ScormLaunch } from '@portal/contracts'
import { launchBrowser } from './browser.ts'
import {
  adminCourses,
  closeCourse,
  cmiValue,
  DEMO,
  eventually,
  openCourse,
  report,
  scormLaunch,
  scormProgress,
  signIn,
  uploadCourse,
  zipOf,
  type Session,
} from './courses-support.ts'
import { startPortal } from './portal.ts'

/*
 * Issue 28 item 10: progress survives the learner closing the browser tab. The SCO sets values
 * and the tab is closed as a learner closes it (Chromium runs its unload handlers), before the
 * runtime's next autocommit (5 s) and without Commit or Finish: the content player's dismissal
 * commit is all that can carry them. Each case reads the next launch (what the runtime resumes
 * with) and, through the real runtime, what the content gets back.
 *
 * In a portal of its own whose content origin is another site (127.0.0.1, the portal localhost),
 * as a deployment's content host is: Chromium then runs the content player in a process of its own,
 * and what it does while the tab closes is what happens in production.
 */

let portal: Awaited<ReturnType<typeof startPortal>> | undefined
let baseURL: string
const run = Date.now().toString(36).slice(-5)
let browser: Browser
let admin: Session
let learner: Session

/** A SCO page that finds the API as content does (the standard parent walk). */
const probePage = (title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><script>
  function findApi(name) { var w = window; try { for (var i = 0; i < 10 && w; i++) { if (w[name]) return w[name]; if (w.parent === w) break; w = w.parent } } catch (e) { /* past the player: another origin */ } return null }
  window.api12 = findApi('API'); window.api2004 = findApi('API_1484_11');
</script></body></html>`

const manifest12 = (title: string) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="closed12-${run}" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${title}</title>
    <item identifier="sco" identifierref="res"><title>${title}</title></item>
  </organization></organizations>
  <resources><resource identifier="res" type="webcontent" adlcp:scormtype="sco" href="sco.html"><file href="sco.html"/></resource></resources>
</manifest>`

const manifest2004 = (title: string) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="closed2004-${run}" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${title}</title>
    <item identifier="sco" identifierref="res"><title>${title}</title></item>
  </organization></organizations>
  <resources><resource identifier="res" type="webcontent" adlcp:scormType="sco" href="sco.html"><file href="sco.html"/></resource></resources>
</manifest>`

const PROBES = {
  v12: `Tab closed 1.2 ${run}`,
  suspend: `Tab closed 2004 suspend ${run}`,
  big: `Tab closed 2004 64000 ${run}`,
  abandoned: `Tab closed 2004 no exit ${run}`,
} as const
const moduleOf = new Map<string, number>()

/** Suspend data as content writes it: printable, not one repeated character (nothing a transport could shrink). */
const suspendData = (length: number, seed: string) => {
  let s = ''
  for (let i = 0; s.length < length; i++) s += `${seed}${i.toString(36)};`
  return s.slice(0, length)
}

/** The SCO frame of the open lesson, once its script found the API. */
async function scoFrame(page: Page): Promise<Frame> {
  return eventually(
    async () => {
      const frame = page.frames().find((f) => !f.isDetached() && new URL(f.url()).pathname.endsWith('/sco.html'))
      if (!frame)
        throw new Error(
          `no sco.html among ${page
            .frames()
            .map((f) => f.url())
            .join(', ')}`,
        )
      await frame.waitForFunction(() => (window as unknown as { api12?: unknown }).api12 || (window as unknown as { api2004?: unknown }).api2004)
      return frame
    },
    () => true,
    'the SCO',
  )
}

/** Runs SCORM calls in the SCO as content does: `calls` is [method, ...args][]; resolves every answer. */
const call = (frame: Frame, api: 'api12' | 'api2004', calls: string[][]) =>
  frame.evaluate(
    ({ api, calls }) => {
      const a = (window as unknown as Record<string, Record<string, (...args: string[]) => string>>)[api]!
      return calls.map(([method, ...args]) => String(a[method!]!(...args)))
    },
    { api, calls },
  )

/** A second tab of the learner with the course open in its viewer and the SCO loaded. */
async function tabWithCourse(title: string): Promise<{ tab: Page; sco: Frame }> {
  const tab = await learner.page.context().newPage()
  tab.setDefaultTimeout(20_000)
  tab.on('pageerror', (e) => learner.errors.push(String(e)))
  await tab.goto('/user-dashboard')
  await openCourse(tab, title)
  return { tab, sco: await scoFrame(tab) }
}

/**
 * The learner closes the tab (Chromium runs the pages' beforeunload, pagehide and unload) while the
 * content is in the middle of a long task, as heavy content on a slow or busy machine often is.
 * The content player shares the content's process (same origin), out of the portal's: Chromium
 * does not wait for such a frame when its tab closes, so the player gets no chance to run its own
 * dismissal handlers before it is gone.
 */
async function closeTabWhileBusy(tab: Page, sco: Frame): Promise<void> {
  await sco.evaluate(() => {
    setTimeout(() => {
      const end = Date.now() + 2_000
      while (Date.now() < end);
    }, 0)
  })
  await tab.close({ runBeforeUnload: true })
}

const nextLaunch = (moduleId: number) => scormLaunch(learner.page, baseURL, moduleId)

beforeAll(async () => {
  // The builds exist already (the journeys' portal was started with `npm start`): run the launcher alone.
  portal = await startPortal(process.execPath, ['launcher/src/main.ts'], {}, { contentHost: '127.0.0.1' })
  baseURL = portal.baseURL
  browser = await launchBrowser()
  admin = await signIn(browser, baseURL, DEMO.admin)
  await admin.page.getByRole('tab', { name: 'Courses' }).click()
  const zips = {
    v12: await zipOf({ 'imsmanifest.xml': manifest12(PROBES.v12), 'sco.html': probePage(PROBES.v12) }),
    suspend: await zipOf({ 'imsmanifest.xml': manifest2004(PROBES.suspend), 'sco.html': probePage(PROBES.suspend) }),
    big: await zipOf({ 'imsmanifest.xml': manifest2004(PROBES.big), 'sco.html': probePage(PROBES.big) }),
    abandoned: await zipOf({ 'imsmanifest.xml': manifest2004(PROBES.abandoned), 'sco.html': probePage(PROBES.abandoned) }),
  }
  for (const key of Object.keys(PROBES) as (keyof typeof PROBES)[])
    await uploadCourse(admin.page, PROBES[key], [{ name: `${key}.zip`, mimeType: 'application/zip', buffer: zips[key] }], { assignToAll: true })
  const courses = await eventually(
    () => adminCourses(admin.page, baseURL),
    (list) => Object.values(PROBES).every((t) => list.find((c) => c.title === t)?.modules[0]?.processing_status === 'ready'),
    'the probe packages ingested',
    90_000,
  )
  for (const title of Object.values(PROBES)) moduleOf.set(title, courses.find((c) => c.title === title)!.modules[0]!.id)
  learner = await signIn(browser, baseURL, DEMO.seattle)
}, 240_000)
afterAll(async () => {
  await browser?.close()
  await portal?.stop()
})

describe('closing the browser tab with a SCO open, without Commit or Finish', () => {
  it('1.2: the lesson location and 3,000 characters of suspend data are there at the next launch', async () => {
    const moduleId = moduleOf.get(PROBES.v12)!
    const data = suspendData(3_000, 'v12')
    const { tab, sco } = await tabWithCourse(PROBES.v12)
    expect(
      await call(sco, 'api12', [
        ['LMSInitialize', ''],
        ['LMSSetValue', 'cmi.core.lesson_status', 'incomplete'],
        ['LMSSetValue', 'cmi.core.lesson_location', 'page-7'],
        ['LMSSetValue', 'cmi.suspend_data', data],
      ]),
    ).toEqual(['true', 'true', 'true', 'true'])
    await closeTabWhileBusy(tab, sco)

    const launch = await eventually(
      () => nextLaunch(moduleId),
      (l: ScormLaunch) => cmiValue(l, 'sco', 'cmi.core.lesson_location') === 'page-7',
      'the dismissal commit stored',
      10_000,
      (l) => l.state,
    )
    expect(cmiValue(launch, 'sco', 'cmi.suspend_data')).toBe(data)
    // What the content gets back when the learner opens the course again.
    await openCourse(learner.page, PROBES.v12)
    const again = await scoFrame(learner.page)
    expect(
      await call(again, 'api12', [
        ['LMSInitialize', ''],
        ['LMSGetValue', 'cmi.core.lesson_location'],
        ['LMSGetValue', 'cmi.suspend_data'],
      ]),
    ).toEqual(['true', 'page-7', data])
    await closeCourse(learner.page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('2004 with cmi.exit = suspend: the next launch resumes with the location and the suspend data', async () => {
    const moduleId = moduleOf.get(PROBES.suspend)!
    const data = suspendData(3_000, 's04')
    const { tab, sco } = await tabWithCourse(PROBES.suspend)
    expect(
      await call(sco, 'api2004', [
        ['Initialize', ''],
        ['SetValue', 'cmi.completion_status', 'incomplete'],
        ['SetValue', 'cmi.location', 'slide-12'],
        ['SetValue', 'cmi.suspend_data', data],
        ['SetValue', 'cmi.exit', 'suspend'],
      ]),
    ).toEqual(['true', 'true', 'true', 'true', 'true'])
    await closeTabWhileBusy(tab, sco)

    const launch = await eventually(
      () => nextLaunch(moduleId),
      (l: ScormLaunch) => l.state.sco?.entry === 'resume',
      'the suspended attempt stored',
      10_000,
      (l) => l.state,
    )
    expect(cmiValue(launch, 'sco', 'cmi.location')).toBe('slide-12')
    expect(cmiValue(launch, 'sco', 'cmi.suspend_data')).toBe(data)
    await openCourse(learner.page, PROBES.suspend)
    const again = await scoFrame(learner.page)
    expect(
      await call(again, 'api2004', [
        ['Initialize', ''],
        ['GetValue', 'cmi.entry'],
        ['GetValue', 'cmi.location'],
        ['GetValue', 'cmi.suspend_data'],
      ]),
    ).toEqual(['true', 'resume', 'slide-12', data])
    await closeCourse(learner.page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('2004 with 64,000 characters of suspend data: more than a beacon may carry, and still all there at the next launch', async () => {
    const moduleId = moduleOf.get(PROBES.big)!
    const data = suspendData(64_000, 'big')
    const { tab, sco } = await tabWithCourse(PROBES.big)
    expect(
      await call(sco, 'api2004', [
        ['Initialize', ''],
        ['SetValue', 'cmi.completion_status', 'incomplete'],
        ['SetValue', 'cmi.suspend_data', data],
        ['SetValue', 'cmi.location', 'chapter-2'],
      ]),
    ).toEqual(['true', 'true', 'true', 'true'])
    // The learner reads on for a moment; the large value has gone ahead meanwhile (the player
    // commits large values early, not at the 5 s autocommit) ...
    await eventually(
      () => scormProgress(learner.page, baseURL, moduleId),
      (p) => p.suspendData.length === 64_000,
      'the suspend data stored',
      10_000,
      (p) => p.suspendData.length,
    )
    // ... then moves on and closes the tab: the final commit carries only what changed since.
    expect(
      await call(sco, 'api2004', [
        ['SetValue', 'cmi.location', 'chapter-3'],
        ['SetValue', 'cmi.exit', 'suspend'],
      ]),
    ).toEqual(['true', 'true'])
    await closeTabWhileBusy(tab, sco)

    const launch = await eventually(
      () => nextLaunch(moduleId),
      (l: ScormLaunch) => l.state.sco?.entry === 'resume' && cmiValue(l, 'sco', 'cmi.location') === 'chapter-3',
      'the suspended attempt stored with the last location',
      10_000,
      (l) => ({ entry: l.state.sco?.entry, location: cmiValue(l, 'sco', 'cmi.location'), suspendData: String(cmiValue(l, 'sco', 'cmi.suspend_data') ?? '').length }),
    )
    expect(cmiValue(launch, 'sco', 'cmi.suspend_data')).toBe(data)
    await openCourse(learner.page, PROBES.big)
    const again = await scoFrame(learner.page)
    const [init, entry, location, resumed] = await call(again, 'api2004', [
      ['Initialize', ''],
      ['GetValue', 'cmi.entry'],
      ['GetValue', 'cmi.location'],
      ['GetValue', 'cmi.suspend_data'],
    ])
    expect([init, entry, location, resumed?.length]).toEqual(['true', 'resume', 'chapter-3', 64_000])
    expect(resumed).toBe(data)
    await closeCourse(learner.page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('2004 without Terminate and without exit = suspend: the session arrives and ends the attempt; the next launch starts a new one (decision 0031)', async () => {
    const moduleId = moduleOf.get(PROBES.abandoned)!
    const { tab, sco } = await tabWithCourse(PROBES.abandoned)
    await call(sco, 'api2004', [
      ['Initialize', ''],
      ['SetValue', 'cmi.completion_status', 'incomplete'],
      ['SetValue', 'cmi.location', 'left-here'],
      ['SetValue', 'cmi.suspend_data', 'abandoned data'],
    ])
    // Closed while idle: the player's own dismissal handlers send it.
    await tab.close({ runBeforeUnload: true })

    // The record keeps what the session did (progress, reports) ...
    await eventually(
      () => scormProgress(learner.page, baseURL, moduleId),
      (p) => p.location === 'left-here',
      'the abandoned session stored',
      10_000,
    )
    // ... and the next launch is a new attempt, ab-initio with nothing suspended.
    const launch = await nextLaunch(moduleId)
    expect(launch.state.sco).toBeUndefined()
    await openCourse(learner.page, PROBES.abandoned)
    const again = await scoFrame(learner.page)
    expect(
      await call(again, 'api2004', [
        ['Initialize', ''],
        ['GetValue', 'cmi.entry'],
        ['GetValue', 'cmi.location'],
        ['GetValue', 'cmi.suspend_data'],
      ]),
    ).toEqual(['true', 'ab-initio', '', ''])
    await closeCourse(learner.page)
    expect(learner.errors, report(learner)).toEqual([])
  })
})
