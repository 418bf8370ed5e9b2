import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import {
  DEMO,
  adminCourses,
  answerGolfQuiz,
  assignCourse,
  cmiValue,
  contentFrame,
  courseCard,
  eventually,
  fixturePath,
  golfPage,
  leaveViewer,
  myCourses,
  notAZip,
  openCourse,
  recordWebm,
  report,
  scormLaunch,
  scormProgress,
  selectItem,
  signIn,
  tinyPdf,
  uploadCourse,
  zipOf,
  type Session,
} from './courses-support.ts'

/*
 * What each real package does and how a learner drives it (read from the unzipped packages):
 *
 * golf-scorm12-RuntimeBasicCalls (1.2, one SCO shared/launchpage.html): the launch page shows 15
 *   pages in its own #contentFrame with "<- Previous" / "Next ->" / "Exit" buttons. Initialize sets
 *   lesson_status incomplete; every page sets lesson_location to its index; the last page (the
 *   Knowledge Check) sets lesson_status completed; submitting it sets score.raw/min/max and
 *   passed/failed (70%). On unload: session_time, exit=suspend (unless the end was reached), LMSFinish.
 *   Re-entry with a stored location asks confirm("Would you like to resume from where you previously
 *   left off?") and shows that page.
 * golf-scorm12-RuntimeMinimumCalls (1.2, 18 SCOs, one page each): LMSInitialize on load, LMSFinish on
 *   unload, nothing else; the runtime turns 'not attempted' into 'completed' at finish. Resume = the
 *   viewer opens the SCO last used.
 * golf-scorm2004-3rd-RuntimeBasicCalls: as the 1.2 one with cmi.location, completion_status,
 *   success_status, score.scaled, cmi.exit, session_time; Exit issues adl.nav.request.
 * golf-scorm2004-3rd-RunTimeAdvancedCalls: adds progress_measure per page, cmi.objectives.n.* (the
 *   objectives are declared in the manifest; the content alerts "could not find objective" when the
 *   runtime did not create them) and cmi.interactions.n.* from the quiz.
 * golf-scorm2004-3rd-SequencingForcedSequential (5 SCOs launchpage.html?content=...): each SCO pages
 *   through its part; its last page sets completion completed + success passed and Commits;
 *   exit is always suspend.
 * golf-scorm2004-4th-SequencingPostTestRollup4thEd (5 SCOs): as above plus a "Notes" button whose
 *   jQuery dialog saves a textarea into the adl.data store
 *   com.scorm.golfsamples.sequencing.forcedsequential.notesStorage, shared by every SCO.
 * jleyva-scorm-debugger-scorm12 (1.2, index.html under 6 items, one isvisible=false, one asset): tabs;
 *   the Debugger tab sets any element ("Element name", Set value, "Element value" + Enter) and Commit;
 *   the Stored data tab lists every readable element at load. No LMSFinish at all: the last commit
 *   must come from the runtime itself at page dismissal.
 */

const baseURL = inject('baseURL')
const run = Date.now().toString(36).slice(-5)
let browser: Browser
let admin: Session
let learner: Session
let mediaLearner: Session
let mediaPeer: Page

const COURSES = {
  basic12: { zip: 'golf-scorm12-RuntimeBasicCalls.zip', title: `Golf 1.2 basic calls ${run}` },
  minimum12: { zip: 'golf-scorm12-RuntimeMinimumCalls.zip', title: `Golf 1.2 minimum calls ${run}` },
  basic2004: { zip: 'golf-scorm2004-3rd-RuntimeBasicCalls.zip', title: `Golf 2004 basic calls ${run}` },
  advanced2004: { zip: 'golf-scorm2004-3rd-RunTimeAdvancedCalls.zip', title: `Golf 2004 advanced calls ${run}` },
  sequential2004: { zip: 'golf-scorm2004-3rd-SequencingForcedSequential.zip', title: `Golf 2004 forced sequential ${run}` },
  rollup4th: { zip: 'golf-scorm2004-4th-SequencingPostTestRollup4thEd.zip', title: `Golf 2004 4th shared data ${run}` },
  debugger12: { zip: 'jleyva-scorm-debugger-scorm12.zip', title: `SCORM debugger ${run}` },
} as const
type Key = keyof typeof COURSES
const media = { title: `Safety video and handbook ${run}` }
const broken = { corrupt: `Corrupt package ${run}`, notScorm: `Not a SCORM package ${run}` }

/** Module id of each uploaded course's (first) module, from the admin's course list. */
const moduleIds = new Map<string, number[]>()
const courseIds = new Map<string, number>()

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('courses journey', () => {
  it('an admin uploads every SCORM package, a video + PDF course and two broken zips, and assigns them', async () => {
    admin = await signIn(browser, baseURL, DEMO.admin)
    const page = admin.page
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Courses' }).click()

    for (const c of Object.values(COURSES)) await uploadCourse(page, c.title, [fixturePath(c.zip)])
    const video = await recordWebm(browser, 3_000)
    await uploadCourse(
      page,
      media.title,
      [
        { name: 'safety-video.webm', mimeType: 'video/webm', buffer: video },
        { name: 'handbook.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Ladder safety handbook') },
      ],
      { assignToAll: true },
    )
    await uploadCourse(page, broken.notScorm, [{ name: 'plain-site.zip', mimeType: 'application/zip', buffer: await zipOf({ 'index.html': '<h1>Hello</h1>' }) }])
    // Random bytes named .zip: refused by content sniffing (shown in the form) or accepted and failed in processing.
    const refused = await uploadCourse(page, broken.corrupt, [{ name: 'corrupt.zip', mimeType: 'application/zip', buffer: notAZip() }], { mayBeRefused: true })

    for (const c of Object.values(COURSES)) await assignCourse(page, c.title, DEMO.portland)

    // Packages are ingested in the background: wait until none is processing.
    const courses = await eventually(
      () => adminCourses(page, baseURL),
      (list) => list.filter((c) => c.title.endsWith(run)).every((c) => c.modules.every((m) => m.processing_status !== 'processing')),
      'packages still processing',
      60_000,
    )
    for (const c of courses) {
      courseIds.set(c.title, c.id)
      moduleIds.set(
        c.title,
        [...c.modules].sort((a, b) => a.order - b.order).map((m) => m.id),
      )
    }
    const byTitle = (t: string) => courses.find((c) => c.title === t)
    for (const c of Object.values(COURSES)) {
      const course = byTitle(c.title)
      expect(course?.modules.map((m) => [m.processing_status, m.processing_error]), c.zip).toEqual([['ready', null]])
      expect(course?.assigned_user_ids).toHaveLength(1)
    }
    expect(byTitle(COURSES.basic12.title)?.modules[0]?.scorm_version).toBe('1.2')
    expect(byTitle(COURSES.rollup4th.title)?.modules[0]).toMatchObject({ scorm_version: '2004', sco_count: 5 })
    expect(byTitle(COURSES.minimum12.title)?.modules[0]?.sco_count).toBe(18)

    // The broken packages show their error in the table.
    const notScormRow = page.getByRole('row').filter({ hasText: broken.notScorm })
    await notScormRow.getByText(/Failed/).first().waitFor()
    expect(byTitle(broken.notScorm)?.modules[0]?.processing_status).toBe('failed')
    if (refused) expect(refused).toMatch(/corrupt\.zip/)
    else {
      await page.getByRole('row').filter({ hasText: broken.corrupt }).getByText(/Failed/).first().waitFor()
      expect(byTitle(broken.corrupt)?.modules[0]?.processing_status).toBe('failed')
    }
    expect(admin.errors, report(admin)).toEqual([])
  }, 180_000)
})
