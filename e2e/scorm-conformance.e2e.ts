import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Frame, Page } from 'playwright-core'
import type { ScormProgress } from '@portal/contracts'
import { launchBrowser } from './browser.ts'
import {
  adminCourses,
  closeCourse,
  DEMO,
  eventually,
  flowButton,
  lessonButton,
  lockedBecause,
  myCourses,
  openCourse,
  report,
  scormLaunch,
  scormProgress,
  signIn,
  uploadCourse,
  zipOf,
  type Session,
} from './courses-support.ts'

/*
 * Issue 17: SCORM run-time rules, each driven by a probe SCO written here (a zip built at test
 * time), played in Chromium through the real viewer and content player, with the stored record
 * read back through the API. The probe page does nothing by itself: the test makes its SCORM calls
 * from inside the SCO frame, as content would (the API found by the standard parent walk).
 */

const baseURL = inject('baseURL')
const run = Date.now().toString(36).slice(-5)
let browser: Browser
let admin: Session
let learner: Session

/** A SCO page that finds the API as content does and shows its title. */
const probePage = (title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><script>
  function findApi(name) { var w = window; try { for (var i = 0; i < 10 && w; i++) { if (w[name]) return w[name]; if (w.parent === w) break; w = w.parent } } catch (e) { /* past the player: another origin */ } return null }
  window.api12 = findApi('API'); window.api2004 = findApi('API_1484_11');
</script></body></html>`

const manifest2004 = (title: string, threshold?: number) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="probe-${run}" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${title}</title>
    <item identifier="sco" identifierref="res"><title>${title}</title>${threshold === undefined ? '' : `<adlcp:completionThreshold>${threshold}</adlcp:completionThreshold>`}</item>
  </organization></organizations>
  <resources><resource identifier="res" type="webcontent" adlcp:scormType="sco" href="sco.html"><file href="sco.html"/></resource></resources>
</manifest>`

/** A SCORM 1.2 package: `items` are [identifier, title, scormtype, prerequisites?]. */
const manifest12 = (title: string, items: [string, string, 'sco' | 'asset', string?][]) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="probe12-${run}" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${title}</title>
    ${items.map(([id, t, , pre]) => `<item identifier="${id}" identifierref="r-${id}"><title>${t}</title>${pre ? `<adlcp:prerequisites type="aicc_script">${pre}</adlcp:prerequisites>` : ''}</item>`).join('\n    ')}
  </organization></organizations>
  <resources>
    ${items.map(([id, , type]) => `<resource identifier="r-${id}" type="webcontent" adlcp:scormtype="${type}" href="${id}.html"><file href="${id}.html"/></resource>`).join('\n    ')}
  </resources>
</manifest>`

/** SCORM 2004 4th edition forced sequential: Etiquette is disabled until Playing's objective (a global one) is satisfied. */
const forcedSequential4th = (title: string) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="fs4-${run}" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org" adlseq:objectivesGlobalToSystem="false"><title>${title}</title>
    <item identifier="playing" identifierref="r-playing"><title>Playing the Game</title>
      <imsss:sequencing>
        <imsss:objectives><imsss:primaryObjective objectiveID="playing_satisfied"><imsss:mapInfo targetObjectiveID="g.playing" readSatisfiedStatus="true" writeSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives>
        <imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>
      </imsss:sequencing>
    </item>
    <item identifier="etiquette" identifierref="r-etiquette"><title>Etiquette</title>
      <imsss:sequencing>
        <imsss:sequencingRules><imsss:preConditionRule>
          <imsss:ruleConditions conditionCombination="any">
            <imsss:ruleCondition referencedObjective="previous" operator="not" condition="satisfied"/>
            <imsss:ruleCondition referencedObjective="previous" operator="not" condition="objectiveStatusKnown"/>
          </imsss:ruleConditions>
          <imsss:ruleAction action="disabled"/>
        </imsss:preConditionRule></imsss:sequencingRules>
        <imsss:objectives>
          <imsss:primaryObjective objectiveID="etiquette_satisfied"/>
          <imsss:objective objectiveID="previous"><imsss:mapInfo targetObjectiveID="g.playing" readSatisfiedStatus="true"/></imsss:objective>
        </imsss:objectives>
        <imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>
      </imsss:sequencing>
    </item>
    <imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>
  </organization></organizations>
  <resources>
    <resource identifier="r-playing" type="webcontent" adlcp:scormType="sco" href="playing.html"><file href="playing.html"/></resource>
    <resource identifier="r-etiquette" type="webcontent" adlcp:scormType="sco" href="etiquette.html"><file href="etiquette.html"/></resource>
  </resources>
</manifest>`

const PROBES = {
  attempts: `Probe 2004 attempts ${run}`,
  threshold: `Probe 2004 threshold ${run}`,
  finish: `Probe 1.2 finish ${run}`,
  order: `Probe 1.2 prerequisites and asset ${run}`,
  sequential: `Probe 2004 4th forced sequential ${run}`,
} as const
const moduleOf = new Map<string, number>()

async function packages(): Promise<Record<keyof typeof PROBES, Buffer>> {
  return {
    attempts: await zipOf({ 'imsmanifest.xml': manifest2004(PROBES.attempts), 'sco.html': probePage(PROBES.attempts) }),
    threshold: await zipOf({ 'imsmanifest.xml': manifest2004(PROBES.threshold, 0.6), 'sco.html': probePage(PROBES.threshold) }),
    finish: await zipOf({ 'imsmanifest.xml': manifest12(PROBES.finish, [['one', PROBES.finish, 'sco']]), 'one.html': probePage(PROBES.finish) }),
    order: await zipOf({
      'imsmanifest.xml': manifest12(PROBES.order, [
        ['intro', 'Introduction', 'sco'],
        ['handout', 'Handout', 'asset'],
        ['quiz', 'Quiz', 'sco', 'intro'],
      ]),
      'intro.html': probePage('Introduction'),
      'handout.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Handout</title></head><body><h1>Handout</h1></body></html>',
      'quiz.html': probePage('Quiz'),
    }),
    sequential: await zipOf({
      'imsmanifest.xml': forcedSequential4th(PROBES.sequential),
      'playing.html': probePage('Playing the Game'),
      'etiquette.html': probePage('Etiquette'),
    }),
  }
}

/** The SCO frame of the open lesson (its page under /api/content/ on the content origin). */
async function scoFrame(page: Page, file: string): Promise<Frame> {
  return eventually(
    async () => {
      const frame = page.frames().find((f) => !f.isDetached() && new URL(f.url()).pathname.endsWith(`/${file}`))
      if (!frame)
        throw new Error(
          `no ${file} among ${page
            .frames()
            .map((f) => f.url())
            .join(', ')}`,
        )
      await frame.waitForFunction(() => (window as unknown as { api12?: unknown; api2004?: unknown }).api12 || (window as unknown as { api2004?: unknown }).api2004)
      return frame
    },
    () => true,
    `the SCO ${file}`,
  )
}

/** Runs SCORM calls in the SCO: `calls` is [method, ...args][]; resolves every answer. */
const call = (frame: Frame, api: 'api12' | 'api2004', calls: string[][]) =>
  frame.evaluate(
    ({ api, calls }) => {
      const a = (window as unknown as Record<string, Record<string, (...args: string[]) => string>>)[api]!
      return calls.map(([method, ...args]) => String(a[method!]!(...args)))
    },
    { api, calls },
  )

const progressOf = (page: Page, moduleId: number) => scormProgress(page, baseURL, moduleId)
const moduleDone = async (page: Page, title: string) => {
  const course = (await myCourses(page, baseURL)).find((c) => c.title === title)
  return course?.progress
}

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signIn(browser, baseURL, DEMO.admin)
  await admin.page.getByRole('tab', { name: 'Courses' }).click()
  const zips = await packages()
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
})

describe('SCORM conformance probes', () => {
  it('2004: a normal exit ends the attempt — the next launch starts ab-initio without the old data, which stays in the record until the new attempt saves', async () => {
    const page = learner.page
    const moduleId = moduleOf.get(PROBES.attempts)!
    await openCourse(page, PROBES.attempts)
    let sco = await scoFrame(page, 'sco.html')
    expect(
      await call(sco, 'api2004', [
        ['Initialize', ''],
        ['SetValue', 'cmi.location', 'p4'],
        ['SetValue', 'cmi.suspend_data', 'old data'],
        ['SetValue', 'cmi.completion_status', 'incomplete'],
        ['SetValue', 'cmi.exit', 'normal'],
        ['Terminate', ''],
      ]),
    ).toEqual(['true', 'true', 'true', 'true', 'true', 'true'])
    await eventually(
      () => progressOf(page, moduleId),
      (p) => p.location === 'p4',
      'the first attempt stored',
    )
    await closeCourse(page)

    await openCourse(page, PROBES.attempts)
    sco = await scoFrame(page, 'sco.html')
    expect(
      await call(sco, 'api2004', [
        ['Initialize', ''],
        ['GetValue', 'cmi.entry'],
        ['GetValue', 'cmi.location'],
        ['GetValue', 'cmi.suspend_data'],
      ]),
    ).toEqual(['true', 'ab-initio', '', ''])
    await call(sco, 'api2004', [
      ['SetValue', 'cmi.location', 'n1'],
      ['SetValue', 'cmi.exit', 'suspend'],
      ['Commit', ''],
    ])
    const second = await eventually(
      () => progressOf(page, moduleId),
      (p) => p.location === 'n1',
      'the new attempt stored',
    )
    expect(second.suspendData).toBe('')
    await closeCourse(page)
    // An exit of suspend carries the attempt over.
    const resumed = await scormLaunch(page, baseURL, moduleId)
    expect(resumed.state.sco?.entry).toBe('resume')
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('two tabs: an idle tab opened later and then closed does not overwrite the first tab’s newer work; a refused tab says "Failed to save progress"', async () => {
    const a = learner.page
    const moduleId = moduleOf.get(PROBES.attempts)!
    await openCourse(a, PROBES.attempts)
    const scoA = await scoFrame(a, 'sco.html')
    await call(scoA, 'api2004', [
      ['Initialize', ''],
      ['SetValue', 'cmi.location', 'a-1'],
      ['SetValue', 'cmi.exit', 'suspend'],
      ['Commit', ''],
    ])
    await eventually(
      () => progressOf(a, moduleId),
      (p) => p.location === 'a-1',
      'tab A’s first commit',
    )

    // Tab B: the same learner, opened later, left idle.
    const b = await a.context().newPage()
    await b.goto('/user-dashboard')
    await openCourse(b, PROBES.attempts)
    const scoB = await scoFrame(b, 'sco.html')
    expect(
      await call(scoB, 'api2004', [
        ['Initialize', ''],
        ['GetValue', 'cmi.location'],
      ]),
    ).toEqual(['true', 'a-1'])

    // A works on; then B is closed (its dismissal commit carries what it loaded).
    await call(scoA, 'api2004', [
      ['SetValue', 'cmi.location', 'a-2'],
      ['Commit', ''],
    ])
    await eventually(
      () => progressOf(a, moduleId),
      (p) => p.location === 'a-2',
      'tab A’s newer work',
    )
    await b.close({ runBeforeUnload: true })
    await new Promise((r) => setTimeout(r, 1500))
    expect((await progressOf(a, moduleId)).location).toBe('a-2')
    // A's later commits are stored.
    await call(scoA, 'api2004', [
      ['SetValue', 'cmi.location', 'a-3'],
      ['Commit', ''],
    ])
    await eventually(
      () => progressOf(a, moduleId),
      (p) => p.location === 'a-3',
      'tab A’s later commit stored',
    )

    // A tab whose work another one overtook is told its commit was not saved.
    const c = await a.context().newPage()
    await c.goto('/user-dashboard')
    await openCourse(c, PROBES.attempts)
    const scoC = await scoFrame(c, 'sco.html')
    await call(scoC, 'api2004', [['Initialize', '']])
    await call(scoA, 'api2004', [
      ['SetValue', 'cmi.location', 'a-4'],
      ['Commit', ''],
    ])
    await eventually(
      () => progressOf(a, moduleId),
      (p) => p.location === 'a-4',
      'tab A’s commit after tab C opened',
    )
    await call(scoC, 'api2004', [
      ['SetValue', 'cmi.location', 'c-1'],
      ['Commit', ''],
    ])
    await c.getByRole('alert').filter({ hasText: 'Failed to save progress' }).waitFor()
    expect((await progressOf(a, moduleId)).location).toBe('a-4')
    await c.close()
    await closeCourse(a)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('2004: the manifest’s completion threshold decides — completed with a progress measure below it does not complete the module', async () => {
    const page = learner.page
    const moduleId = moduleOf.get(PROBES.threshold)!
    await openCourse(page, PROBES.threshold)
    const sco = await scoFrame(page, 'sco.html')
    await call(sco, 'api2004', [
      ['Initialize', ''],
      ['SetValue', 'cmi.progress_measure', '0.5'],
      ['SetValue', 'cmi.completion_status', 'completed'],
      ['SetValue', 'cmi.location', 'half'],
      ['Commit', ''],
    ])
    const below = await eventually(
      () => progressOf(page, moduleId),
      (p: ScormProgress) => p.location === 'half',
      'the commit below the threshold',
    )
    expect(below.lessonStatus).toBe('incomplete')
    await new Promise((r) => setTimeout(r, 1500))
    expect(await moduleDone(page, PROBES.threshold)).toBeLessThan(100)
    await call(sco, 'api2004', [
      ['SetValue', 'cmi.progress_measure', '0.6'],
      ['SetValue', 'cmi.location', 'enough'],
      ['Commit', ''],
    ])
    await eventually(
      () => progressOf(page, moduleId),
      (p: ScormProgress) => p.lessonStatus === 'completed',
      'the threshold reached',
    )
    await eventually(
      () => moduleDone(page, PROBES.threshold),
      (p) => p === 100,
      'the course completed',
    )
    await closeCourse(page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('the learner sees what completed a module, and talking content that finished incomplete is not pushed to 95 % (issue 15)', async () => {
    const page = learner.page
    await openCourse(page, PROBES.threshold)
    const modules = page.getByRole('navigation', { name: 'Course modules' })
    await modules.getByText(/^Completed .+ · The lesson reported it complete$/).waitFor()
    await closeCourse(page)

    await openCourse(page, PROBES.attempts)
    const sco = await scoFrame(page, 'sco.html')
    await call(sco, 'api2004', [
      ['Initialize', ''],
      ['SetValue', 'cmi.completion_status', 'incomplete'],
      ['SetValue', 'cmi.progress_measure', '0.25'],
      ['SetValue', 'cmi.exit', 'suspend'],
      ['Terminate', ''],
    ])
    await eventually(
      () => moduleDone(page, PROBES.attempts),
      (p) => p === 25,
      'progress as the content measures it',
    )
    await closeCourse(page)
    const [module] = (await myCourses(page, baseURL)).find((c) => c.title === PROBES.attempts)!.modules
    expect([module!.progress, module!.completed_at]).toEqual([25, null])
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('the data model as the standard has it: 1.2 refuses malformed values with 405; 2004 keeps zoned timestamps and refuses P1H (406)', async () => {
    const page = learner.page
    await openCourse(page, PROBES.finish)
    const one = await scoFrame(page, 'one.html')
    expect(
      await call(one, 'api12', [
        ['LMSInitialize', ''],
        ['LMSSetValue', 'cmi.core.session_time', '1:00:00'],
        ['LMSGetLastError'],
        ['LMSSetValue', 'cmi.core.exit', 'normal'],
        ['LMSGetLastError'],
        ['LMSSetValue', 'cmi.interactions.0.id', 'q 1'],
        ['LMSGetLastError'],
        ['LMSGetValue', 'cmi.core.total_time'],
      ]),
    ).toEqual(['true', 'false', '405', 'false', '405', 'false', '405', '0000:00:00'])
    await closeCourse(page)

    const moduleId = moduleOf.get(PROBES.threshold)!
    await openCourse(page, PROBES.threshold)
    const sco = await scoFrame(page, 'sco.html')
    expect(
      await call(sco, 'api2004', [
        ['Initialize', ''],
        ['SetValue', 'cmi.session_time', 'P1H'],
        ['GetLastError'],
        ['SetValue', 'cmi.interactions.0.id', 'zoned'],
        ['SetValue', 'cmi.interactions.0.type', 'true-false'],
        ['SetValue', 'cmi.interactions.0.timestamp', '2026-11-25T10:00:00+02:00'],
        ['SetValue', 'adl.nav.request', 'exit'],
        ['GetValue', 'adl.nav.request'],
        ['Commit', ''],
      ]),
    ).toEqual(['true', 'false', '406', 'true', 'true', 'true', 'true', 'exit', 'true'])
    const stored = await eventually(
      () => progressOf(page, moduleId),
      (p) => p.interactions.some((i) => i.id === 'zoned'),
      'the zoned interaction stored',
    )
    expect(stored.interactions.find((i) => i.id === 'zoned')?.timestamp).toBe('2026-11-25T10:00:00+02:00')
    await closeCourse(page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('2004 4th forced sequential: once Playing is completed and passed, the lesson tree offers Etiquette as Continue does', async () => {
    const page = learner.page
    await openCourse(page, PROBES.sequential)
    const playing = await scoFrame(page, 'playing.html')
    const etiquette = lessonButton(page, 'Etiquette')
    expect(await lockedBecause(etiquette)).toBe('Available after “Playing the Game”.')
    await call(playing, 'api2004', [
      ['Initialize', ''],
      ['SetValue', 'cmi.completion_status', 'completed'],
      ['SetValue', 'cmi.success_status', 'passed'],
    ])
    await eventually(
      () => lockedBecause(etiquette),
      (r) => r === null,
      'Etiquette offered in the tree',
    )
    expect(await lockedBecause(flowButton(page, 'Continue'))).toBeNull()
    await etiquette.click()
    await scoFrame(page, 'etiquette.html')
    await closeCourse(page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('1.2: after LMSFinish, get, set and commit fail with 101 and nothing is stored', async () => {
    const page = learner.page
    const moduleId = moduleOf.get(PROBES.finish)!
    await openCourse(page, PROBES.finish)
    const sco = await scoFrame(page, 'one.html')
    expect(
      await call(sco, 'api12', [
        ['LMSInitialize', ''],
        ['LMSSetValue', 'cmi.core.lesson_location', 'before'],
        ['LMSSetValue', 'cmi.core.exit', 'suspend'],
        ['LMSFinish', ''],
        ['LMSSetValue', 'cmi.core.lesson_location', 'after'],
        ['LMSGetLastError'],
        ['LMSGetValue', 'cmi.core.lesson_location'],
        ['LMSGetLastError'],
        ['LMSCommit', ''],
        ['LMSGetLastError'],
      ]),
    ).toEqual(['true', 'true', 'true', 'true', 'false', '101', '', '101', 'false', '101'])
    await eventually(
      () => progressOf(page, moduleId),
      (p) => p.location === 'before',
      'the finished session stored',
    )
    await closeCourse(page)
    expect((await progressOf(page, moduleId)).location).toBe('before')
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('1.2: prerequisites lock a lesson with its reason until met; an asset counts as done once launched', async () => {
    const page = learner.page
    await openCourse(page, PROBES.order)
    const intro = await scoFrame(page, 'intro.html')
    const quiz = lessonButton(page, 'Quiz')
    expect(await lockedBecause(quiz)).toBe('Available after “Introduction”.')
    await quiz.dispatchEvent('click')
    expect(page.frames().some((f) => f.url().endsWith('/quiz.html'))).toBe(false)
    await call(intro, 'api12', [
      ['LMSInitialize', ''],
      ['LMSSetValue', 'cmi.core.lesson_status', 'completed'],
      ['LMSFinish', ''],
    ])
    await eventually(
      () => lockedBecause(quiz),
      (r) => r === null,
      'the quiz unlocked',
    )
    // The asset never talks to the runtime: opening it is what counts.
    await lessonButton(page, 'Handout').click()
    await eventually(
      async () => page.frames().some((f) => f.url().endsWith('/handout.html')),
      (v) => v,
      'the handout shown',
    )
    await lessonButton(page, 'Quiz').click()
    const sco = await scoFrame(page, 'quiz.html')
    await call(sco, 'api12', [
      ['LMSInitialize', ''],
      ['LMSSetValue', 'cmi.core.lesson_status', 'passed'],
      ['LMSFinish', ''],
    ])
    await eventually(
      () => moduleDone(page, PROBES.order),
      (p) => p === 100,
      'the package completed with its asset',
    )
    await closeCourse(page)
    // The lock follows the stored statuses on the next visit too.
    await openCourse(page, PROBES.order)
    expect(await lockedBecause(lessonButton(page, 'Quiz'))).toBeNull()
    await closeCourse(page)
    expect(learner.errors, report(learner)).toEqual([])
  })
})
