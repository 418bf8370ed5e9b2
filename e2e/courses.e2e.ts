import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { descriptionOf, focusedControl, launchBrowser, tabTo } from './browser.ts'
import {
  adminCourses,
  answerGolfQuiz,
  assignCourse,
  closeCourse,
  cmiValue,
  contentFrame,
  courseCard,
  courseRow,
  DEMO,
  eventually,
  fixturePath,
  flowButton,
  golfPage,
  golfRequests,
  leaveViewer,
  lessonButton,
  lockedBecause,
  myCourses,
  notAZip,
  openCourse,
  recordWebm,
  report,
  runtimeValue,
  scoInitialized,
  scormLaunch,
  scormProgress,
  selectItem,
  serveCdnFromFixtures,
  settle,
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
 *   exit is always suspend. Its sequencing disables each SCO until the one before is satisfied
 *   (global objectives); choice and flow are allowed. The launch page has no button that issues
 *   continue (its Exit is commented out): golfRequests issues one through the page's own functions.
 * golf-scorm2004-4th-SequencingPostTestRollup4thEd (5 SCOs): as above plus a "Notes" button whose
 *   jQuery dialog saves a textarea into the adl.data store
 *   com.scorm.golfsamples.sequencing.forcedsequential.notesStorage, shared by every SCO, and "Skip to
 *   the Test" (a jump request). It gates on completion instead; the test is hidden from choice until
 *   attempted and alone rolls up to the course. Its launch page loads jQuery and jQuery UI from
 *   ajax.googleapis.com (unreachable from CI: see serveCdnFromFixtures); without them doStart()
 *   throws before Initialize.
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
const media = { title: `Safety video and handbook ${run}` }
const broken = { corrupt: `Corrupt package ${run}`, notScorm: `Not a SCORM package ${run}`, cancelled: `Cancelled upload ${run}` }

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
  it('an admin cancels a slow upload, then uploads every SCORM package, a video + PDF course and two broken zips, and assigns them', async () => {
    admin = await signIn(browser, baseURL, DEMO.admin)
    const page = admin.page
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Courses' }).click()

    // On a slow line the upload shows its progress and can be cancelled; the form keeps its details.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 48 * 1024 })
    await page.getByRole('button', { name: 'Upload New Course' }).click()
    const form = page.getByRole('form', { name: 'Upload New Course' })
    await form.getByLabel('Course Title').fill(broken.cancelled)
    await form.getByLabel('Module Files').setInputFiles(fixturePath(COURSES.debugger12.zip))
    await form.getByRole('button', { name: 'Upload', exact: true }).click()
    const bar = form.getByRole('progressbar', { name: 'Upload progress' })
    await expect.poll(async () => Number((await bar.getAttribute('aria-valuenow')) ?? 0)).toBeGreaterThan(0)
    await form.getByRole('button', { name: 'Cancel Upload' }).click()
    await form.getByText('The upload was cancelled. Your course details are kept; you can upload again.').waitFor()
    await expect.poll(() => form.getByLabel('Course Title').inputValue()).toBe(broken.cancelled)
    await form.getByRole('button', { name: 'Cancel', exact: true }).click()
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    await cdp.detach()

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
    expect(byTitle(broken.cancelled), 'a cancelled upload creates no course').toBeUndefined()
    for (const c of Object.values(COURSES)) {
      const course = byTitle(c.title)
      expect(
        course?.modules.map((m) => [m.processing_status, m.processing_error]),
        c.zip,
      ).toEqual([['ready', null]])
      expect(course?.assigned_user_ids).toHaveLength(1)
    }
    expect(byTitle(COURSES.basic12.title)?.modules[0]?.scorm_version).toBe('1.2')
    expect(byTitle(COURSES.rollup4th.title)?.modules[0]).toMatchObject({ scorm_version: '2004', sco_count: 5 })
    expect(byTitle(COURSES.minimum12.title)?.modules[0]?.sco_count).toBe(18)

    // The broken packages show their error in the table.
    const notScorm = byTitle(broken.notScorm)?.modules[0]
    expect(notScorm?.processing_status).toBe('failed')
    expect(notScorm?.processing_error).toMatch(/imsmanifest\.xml/)
    await courseRow(page, broken.notScorm).getByText(`Failed: ${notScorm?.processing_error}`).waitFor()
    await courseRow(page, broken.notScorm).getByText('1 module · 1 failed').waitFor()
    if (refused) expect(refused).toMatch(/corrupt\.zip/)
    else {
      const corrupt = byTitle(broken.corrupt)?.modules[0]
      expect(corrupt?.processing_status).toBe('failed')
      await courseRow(page, broken.corrupt).getByText(`Failed: ${corrupt?.processing_error}`).waitFor()
    }
    await courseRow(page, COURSES.rollup4th.title).getByText('SCORM 2004 4th Edition').waitFor()
    await courseRow(page, COURSES.basic12.title).getByText('1 user', { exact: true }).waitFor()
    await courseRow(page, media.title).getByText('All users', { exact: true }).waitFor()
    expect(admin.errors, report(admin)).toEqual([])
  }, 180_000)

  it('a technician opens the video + PDF course in two tabs; marking the PDF complete at once is refused', async () => {
    mediaLearner = await signIn(browser, baseURL, DEMO.seattle)
    const page = mediaLearner.page
    await openCourse(page, media.title)
    await page.getByText('Module 1 of 2').waitFor()
    await page.getByRole('heading', { name: 'safety-video', exact: true }).waitFor()
    await page.locator('video').waitFor()
    // A second tab of the same learner shows the PDF, so both engagement clocks run at once.
    mediaPeer = await page.context().newPage()
    await openCourse(mediaPeer, media.title)
    await mediaPeer.getByRole('button', { name: /^2\. handbook PDF / }).click()
    await mediaPeer.getByText('Module 2 of 2').waitFor()
    await mediaPeer.locator('iframe[title="handbook"]').waitFor()
    const [videoId, pdfId] = moduleIds.get(media.title)!
    const list = await eventually(
      () => myCourses(page, baseURL),
      (l) => (l.find((c) => c.title === media.title)?.modules ?? []).every((m) => m.started_at !== null && m.progress >= 50),
      'both media modules started, loaded (progress 50)',
    )
    expect(list.find((c) => c.title === media.title)!.modules.map((m) => m.id)).toEqual([videoId, pdfId])
    // The engagement rule (learner §5): too early for the learner's own completion.
    await mediaPeer.getByRole('button', { name: 'Mark as Complete' }).click()
    await mediaPeer.getByText('Please spend more time engaging with the course content before marking as complete.').first().waitFor()
  })

  it('SCORM 1.2 basic calls: status, location and score are stored; reopening resumes on the same page', async () => {
    learner = await signIn(browser, baseURL, DEMO.portland)
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.basic12.title)!
    await openCourse(page, COURSES.basic12.title)
    const golf = golfPage(page)
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()
    for (const h of ['Par', 'Scoring', 'Other Scoring Systems']) {
      await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
      await golf.getByRole('heading', { name: h, exact: true }).waitFor()
    }
    expect(await runtimeValue(page, 'cmi.core.lesson_location')).toBe('3')
    // Close Course lets the content leave as a page leave does: Golf sets exit = suspend in its beforeunload (issue 17 item 4).
    await closeCourse(page)
    const stored = await eventually(
      () => scormProgress(page, baseURL, moduleId),
      (p) => p.location === '3',
      'location stored by the final commit',
    )
    expect(stored).toMatchObject({ lessonStatus: 'incomplete', location: '3' })
    const launch = await scormLaunch(page, baseURL, moduleId)
    expect(launch.state.item_1?.entry).toBe('resume')

    learner.dialogs.length = 0
    await openCourse(page, COURSES.basic12.title)
    await golf.getByRole('heading', { name: 'Other Scoring Systems' }).waitFor()
    expect(learner.dialogs).toEqual(['confirm: Would you like to resume from where you previously left off?'])
    expect(await runtimeValue(page, 'cmi.core.entry')).toBe('resume')

    // To the end and through the knowledge check: completed, then passed with a score of 100.
    for (let i = 3; i < 14; i++) await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'Knowledge Check' }).waitFor()
    await answerGolfQuiz(golf)
    await golf.getByText('Score: 100').waitFor()
    await leaveViewer(page)
    const done = await eventually(
      () => scormProgress(page, baseURL, moduleId),
      (p) => p.lessonStatus === 'passed',
      'passed stored',
    )
    expect(done).toMatchObject({ lessonStatus: 'passed', score: 100, location: '14' })
    // The content reported passed: the module and the one-module course are complete (no engagement wait).
    await eventually(
      () => myCourses(page, baseURL),
      (l) => l.find((c) => c.title === COURSES.basic12.title)?.status === 'completed',
      'course completed by the content',
    )
    await courseCard(page, COURSES.basic12.title).getByText('Completed', { exact: true }).waitFor()
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM 1.2 minimum calls: each SCO is tracked; moving between SCOs and back; reopening starts at the SCO last used', async () => {
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.minimum12.title)!
    await openCourse(page, COURSES.minimum12.title)
    await contentFrame(page).getByRole('heading', { name: 'Play of the game' }).waitFor()
    await scoInitialized(page)
    await selectItem(page, 'Par')
    await contentFrame(page).getByRole('heading', { name: 'Par', exact: true }).waitFor()
    await scoInitialized(page)
    await selectItem(page, 'How to Play')
    await contentFrame(page).getByRole('heading', { name: 'Play of the game' }).waitFor()
    await scoInitialized(page)
    await selectItem(page, 'Keeping Score')
    await contentFrame(page).getByRole('heading', { name: 'Scoring', exact: true }).waitFor()
    await scoInitialized(page)
    await leaveViewer(page)

    const launch = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => cmiValue(l, 'playing_scoring_item', 'cmi.core.lesson_status') === 'completed',
      'the last SCO finished at dismissal',
    )
    expect(cmiValue(launch, 'playing_playing_item', 'cmi.core.lesson_status')).toBe('completed')
    expect(cmiValue(launch, 'playing_par_item', 'cmi.core.lesson_status')).toBe('completed')
    expect(launch.startItem).toBe('playing_scoring_item')

    await openCourse(page, COURSES.minimum12.title)
    await contentFrame(page).getByRole('heading', { name: 'Scoring', exact: true }).waitFor()
    await leaveViewer(page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM 2004 basic calls: completion, location and exit are stored; reopening resumes with cmi.entry resume', async () => {
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.basic2004.title)!
    await openCourse(page, COURSES.basic2004.title)
    const golf = golfPage(page)
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()
    for (const h of ['Par', 'Scoring']) {
      await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
      await golf.getByRole('heading', { name: h, exact: true }).waitFor()
    }
    // Close Course: the content's beforeunload sets exit = suspend, as on a page leave.
    await closeCourse(page)
    const launch = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => cmiValue(l, 'item_1', 'cmi.location') === '2',
      'cmi.location stored',
    )
    expect(launch.state.item_1?.entry).toBe('resume')
    expect(cmiValue(launch, 'item_1', 'cmi.completion_status')).toBe('incomplete')
    expect((await scormProgress(page, baseURL, moduleId)).location).toBe('2')

    learner.dialogs.length = 0
    await openCourse(page, COURSES.basic2004.title)
    await golf.getByRole('heading', { name: 'Scoring', exact: true }).waitFor()
    expect(learner.dialogs).toEqual(['confirm: Would you like to resume from where you previously left off?'])
    expect(await runtimeValue(page, 'cmi.entry')).toBe('resume')

    for (let i = 2; i < 14; i++) await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'Knowledge Check' }).waitFor()
    await answerGolfQuiz(golf)
    await golf.getByText('Score: 100').waitFor()
    await leaveViewer(page)
    const done = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => cmiValue(l, 'item_1', 'cmi.success_status') === 'passed',
      'passed stored',
    )
    expect(cmiValue(done, 'item_1', 'cmi.completion_status')).toBe('completed')
    expect(Number(cmiValue(done, 'item_1', 'cmi.score.scaled'))).toBe(1)
    expect((await scormProgress(page, baseURL, moduleId)).score).toBe(100)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM 2004 advanced calls: progress measure, manifest objectives and quiz interactions are stored and resumed', async () => {
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.advanced2004.title)!
    learner.dialogs.length = 0
    await openCourse(page, COURSES.advanced2004.title)
    const golf = golfPage(page)
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()
    for (let i = 0; i < 5; i++) await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'Etiquette - Care For the Course' }).waitFor()
    // The objectives declared in the manifest exist for the content (else it alerts "could not find objective").
    expect.soft(learner.dialogs, 'the content found its objectives').toEqual([])
    await leaveViewer(page)
    const launch = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => cmiValue(l, 'item_1', 'cmi.location') === '5',
      'cmi.location stored',
    )
    expect(Number(cmiValue(launch, 'item_1', 'cmi.progress_measure'))).toBeCloseTo(0.4, 2)

    learner.dialogs.length = 0
    await openCourse(page, COURSES.advanced2004.title)
    await golf.getByRole('heading', { name: 'Etiquette - Care For the Course' }).waitFor()
    expect(learner.dialogs[0]).toBe('confirm: Would you like to resume from where you previously left off?')
    for (let i = 5; i < 14; i++) await contentFrame(page).getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'Knowledge Check' }).waitFor()
    await answerGolfQuiz(golf)
    await golf.getByText('Score: 100').waitFor()
    await leaveViewer(page)
    const progress = await eventually(
      () => scormProgress(page, baseURL, moduleId),
      (p) => p.interactions.length > 0,
      'interactions stored',
    )
    expect(progress.interactions.length).toBeGreaterThanOrEqual(15)
    expect(progress.interactions.every((i) => i.result === 'correct')).toBe(true)
    expect(progress.score).toBe(100)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM 2004 forced sequential: Etiquette is locked until Playing is passed; the content’s continue, Previous and the lesson tree move as the rules allow; reopening resumes sequencing', async () => {
    learner ??= await signIn(browser, baseURL, DEMO.portland)
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.sequential2004.title)!
    const confirmResume = 'confirm: Would you like to resume from where you previously left off?'
    const golf = golfPage(page)
    const launchPage = contentFrame(page)
    const location = () => runtimeValue(page, 'cmi.location')

    await openCourse(page, COURSES.sequential2004.title)
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()
    await scoInitialized(page)
    // The engine's rules: only Playing the Game may be opened; Continue waits for it to be done.
    expect(await lockedBecause(lessonButton(page, 'Etiquette'))).toBe('Available after “Playing the Game”.')
    expect(await lockedBecause(lessonButton(page, 'Handicapping'))).toBe('Available after “Etiquette”.')
    expect(await lockedBecause(lessonButton(page, 'Playing the Game'))).toBeNull()
    await expect.poll(() => lockedBecause(flowButton(page, 'Continue'))).toBe('Finish this lesson to continue.')
    // A locked lesson cannot be opened, from the keyboard either; the SCO asks the engine and hears no too.
    await lessonButton(page, 'Etiquette').focus()
    await page.keyboard.press('Enter')
    expect(await runtimeValue(page, 'adl.nav.request_valid.choice.{target=etuqiette_item}')).toBe('false')
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()

    // Playing to its last page: completed and passed (then Commit); Continue is offered.
    for (let i = 0; i < 4; i++) await launchPage.getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'The Rules of Golf', exact: true }).waitFor()
    await expect.poll(() => lockedBecause(flowButton(page, 'Continue'))).toBeNull()
    // Close Course suspends the open SCO (its last commit carries the engine state).
    await closeCourse(page)
    const first = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => l.state.playing_item?.entry === 'resume' && l.sequencing?.state !== null,
      'the first SCO and the sequencing state stored at dismissal',
    )
    expect(cmiValue(first, 'playing_item', 'cmi.completion_status')).toBe('completed')
    expect(cmiValue(first, 'playing_item', 'cmi.success_status')).toBe('passed')
    expect(cmiValue(first, 'playing_item', 'cmi.location')).toBe('4')

    // Reopening resumes the suspended SCO on its bookmark, and Etiquette stays unlocked.
    learner.dialogs.length = 0
    await openCourse(page, COURSES.sequential2004.title)
    await golf.getByRole('heading', { name: 'The Rules of Golf', exact: true }).waitFor()
    expect(learner.dialogs).toEqual([confirmResume])
    expect(await runtimeValue(page, 'cmi.entry')).toBe('resume')
    await expect.poll(() => lockedBecause(lessonButton(page, 'Etiquette'))).toBeNull()
    expect(await lockedBecause(lessonButton(page, 'Handicapping'))).toBe('Available after “Etiquette”.')
    await launchPage.getByRole('button', { name: '<- Previous' }).click()
    await golf.getByRole('heading', { name: 'Other Scoring Systems' }).waitFor()

    // The content's own continue request moves on to Etiquette.
    await golfRequests(page, 'continue')
    await golf.getByRole('heading', { name: 'Etiquette - Care For the Course' }).waitFor()
    await scoInitialized(page)
    await launchPage.getByRole('button', { name: 'Next ->' }).click()
    await expect.poll(location).toBe('1')
    // The viewer's Previous goes back to Playing, which resumes where this visit left it.
    learner.dialogs.length = 0
    await flowButton(page, 'Previous').click()
    await golf.getByRole('heading', { name: 'Other Scoring Systems' }).waitFor()
    expect(learner.dialogs).toEqual([confirmResume])
    await scoInitialized(page)
    // And the lesson tree back to Etiquette.
    await selectItem(page, 'Etiquette')
    await expect.poll(location).toBe('1')
    await leaveViewer(page)

    // (what is compared is kept small, so a failure says what was stored instead of the whole launch)
    const stored = async () => {
      const l = await scormLaunch(page, baseURL, moduleId)
      const at = (item: string) => ({ location: cmiValue(l, item, 'cmi.location'), updated: l.state[item]?.updated_at })
      return { launch: l, summary: { startItem: l.startItem, etiquette: at('etuqiette_item'), playing: at('playing_item') } }
    }
    const { launch } = await eventually(
      stored,
      ({ summary }) => summary.etiquette.location === '1' && summary.startItem === 'etuqiette_item',
      'both SCOs stored',
      20_000,
      (v) => v.summary,
    )
    expect(cmiValue(launch, 'playing_item', 'cmi.completion_status'), 'the first SCO is still completed').toBe('completed')
    expect(cmiValue(launch, 'playing_item', 'cmi.success_status')).toBe('passed')
    expect(cmiValue(launch, 'playing_item', 'cmi.location')).toBe('3')
    expect(cmiValue(launch, 'etuqiette_item', 'cmi.completion_status')).toBe('incomplete')

    // The next visit resumes Etiquette, the SCO it was left on.
    await openCourse(page, COURSES.sequential2004.title)
    await golf.getByRole('heading', { name: 'Etiquette - Care For the Course' }).waitFor()
    await expect.poll(() => lessonButton(page, 'Etiquette').getAttribute('aria-current')).toBe('true')
    expect(await lockedBecause(lessonButton(page, 'Playing the Game'))).toBeNull()
    expect(await lockedBecause(lessonButton(page, 'Handicapping'))).toBe('Available after “Etiquette”.')
    await leaveViewer(page)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM 2004 4th edition: notes (adl.data) come back on reopening; the content jumps to the hidden test, whose shared notes it shows; passing it completes the course', async () => {
    learner ??= await signIn(browser, baseURL, DEMO.portland)
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.rollup4th.title)!
    const note = `Keep your head down ${run}`
    const store = 'com.scorm.golfsamples.sequencing.forcedsequential.notesStorage'
    await serveCdnFromFixtures(page.context())
    await openCourse(page, COURSES.rollup4th.title)
    const golf = golfPage(page)
    const launchPage = contentFrame(page)
    const notes = launchPage.locator('#txtNotes')
    await golf.getByRole('heading', { name: 'Play of the game' }).waitFor()
    await launchPage.getByRole('button', { name: 'Next ->' }).click()
    await golf.getByRole('heading', { name: 'Par', exact: true }).waitFor()
    await launchPage.getByRole('button', { name: 'Notes' }).click()
    await notes.fill(note)
    await launchPage.getByRole('button', { name: 'Save' }).click()
    await leaveViewer(page)
    const stored = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => l.sharedData[store] === note,
      'the shared data store',
    )
    expect(cmiValue(stored, 'playing_item', 'cmi.location')).toBe('1')
    expect(Number(cmiValue(stored, 'playing_item', 'cmi.progress_measure'))).toBeCloseTo(0.25, 2)

    learner.dialogs.length = 0
    await openCourse(page, COURSES.rollup4th.title)
    await golf.getByRole('heading', { name: 'Par', exact: true }).waitFor()
    expect(learner.dialogs).toEqual(['confirm: Would you like to resume from where you previously left off?'])
    await launchPage.getByRole('button', { name: 'Notes' }).click()
    await expect.poll(() => notes.inputValue(), { message: 'the note is read back on reopening' }).toBe(note)
    const edited = `${note}, follow through`
    await notes.fill(edited)
    await launchPage.getByRole('button', { name: 'Save' }).click()
    // This edition gates on completion: Playing is not completed, so Etiquette is locked; the test is hidden until then.
    expect(await lockedBecause(lessonButton(page, 'Etiquette'))).toBe('Available after “Playing the Game”.')
    expect(await lessonButton(page, 'Quiz').count()).toBe(0)

    // The content's "Skip to the Test" (a jump request) opens the test, which reads the same store as just saved.
    await launchPage.getByRole('button', { name: 'Skip to the Test' }).click()
    await golf.getByRole('button', { name: 'Submit Answers' }).waitFor()
    await expect.poll(() => lessonButton(page, 'Quiz').getAttribute('aria-current')).toBe('true')
    await launchPage.getByRole('button', { name: 'Notes' }).click()
    expect.soft(await settle(() => notes.inputValue(), edited), 'the note saved in this visit shows in the test').toBe(edited)
    await launchPage.getByRole('button', { name: 'Save' }).click()
    // Passing the test completes the package's root activity (only the test rolls up): the module and the course complete.
    await answerGolfQuiz(golf)
    await eventually(
      () => myCourses(page, baseURL),
      (l) => l.find((c) => c.title === COURSES.rollup4th.title)?.status === 'completed',
      'course completed by the package’s rollup',
    )
    await leaveViewer(page)
    const after = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => cmiValue(l, 'assessment_item', 'cmi.success_status') === 'passed',
      'the test stored',
    )
    expect(after.sharedData[store], 'the store is not overwritten by the test').toBe(edited)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('SCORM debugger: what it sets (5,000 characters of suspend_data too) is stored, loaded on reopening and after moving between items', async () => {
    const page = learner.page
    const [moduleId] = moduleIds.get(COURSES.debugger12.title)!
    const suspend = 'x'.repeat(4_990) + run
    const location = `page-7-${run}`
    await openCourse(page, COURSES.debugger12.title)
    const sco = contentFrame(page)
    await sco.getByRole('heading', { name: 'SCORM 1.2 debugger package' }).waitFor()
    // The hidden item is not offered; the asset and nested items are.
    const lessons = page.getByRole('navigation', { name: 'Lessons in this module' })
    await lessons.getByRole('button', { name: 'Sub-Sub-SCO', exact: true }).waitFor()
    expect(await lessons.getByText('SCO not visible').count()).toBe(0)
    await sco.getByRole('tab', { name: 'Debugger' }).click()
    const set = async (element: string, value: string) => {
      await sco.getByLabel('Element name:').fill(element)
      await sco.getByRole('button', { name: 'Set value' }).click()
      await sco.getByLabel('Element value:').fill(value)
      await sco.getByLabel('Element value:').press('Enter')
    }
    await set('cmi.core.lesson_location', location)
    await set('cmi.suspend_data', suspend)
    await set('cmi.core.lesson_status', 'incomplete')
    await set('cmi.core.score.raw', '8')
    await set('cmi.core.exit', 'suspend')
    await sco.getByRole('button', { name: 'Commit' }).first().click()
    const stored = await eventually(
      () => scormProgress(page, baseURL, moduleId),
      (p) => p.location === location,
      'the committed values',
    )
    expect(stored).toMatchObject({ lessonStatus: 'incomplete', score: 8, suspendData: suspend })
    // The debugger never calls LMSFinish: leaving the page is all the runtime hears.
    await leaveViewer(page)
    const first = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => l.state['mm-ITEM-SCORMDEbugger555f231e21b982c25s01']?.entry === 'resume',
      'entry resume after an exit of suspend',
    )
    expect(first.startItem).toBe('mm-ITEM-SCORMDEbugger555f231e21b982c25s01')

    await openCourse(page, COURSES.debugger12.title)
    await sco.getByRole('gridcell', { name: location, exact: true }).waitFor()
    expect(await runtimeValue(page, 'cmi.core.entry')).toBe('resume')
    expect(await runtimeValue(page, 'cmi.suspend_data')).toBe(suspend)

    // Another item (the same SCO file) and back: the first item's data are loaded again.
    await selectItem(page, 'The second content (one SCO too)')
    await expect.poll(() => runtimeValue(page, 'cmi.core.lesson_location')).toBe('')
    await selectItem(page, 'The first content (one SCO)')
    await expect
      .poll(() => runtimeValue(page, 'cmi.core.lesson_location'), {
        message: 'back on the first item in the same visit, its data are loaded',
      })
      .toBe(location)
    await sco.getByRole('gridcell', { name: location, exact: true }).waitFor()
    await leaveViewer(page)
    // This visit did not suspend (exit is per session), so the next entry is not a resume; the data stay.
    const last = await eventually(
      () => scormLaunch(page, baseURL, moduleId),
      (l) => l.state['mm-ITEM-SCORMDEbugger555f231e21b982c25s01']?.entry === '',
      'the last visit stored',
    )
    expect(cmiValue(last, 'mm-ITEM-SCORMDEbugger555f231e21b982c25s01', 'cmi.core.lesson_location')).toBe(location)
    expect(cmiValue(last, 'mm-ITEM-SCORMDEbugger555f231e21b982c25s01', 'cmi.suspend_data')).toBe(suspend)
    expect(learner.errors, report(learner)).toEqual([])
  })

  it('after the engagement time, the video played to its end and the PDF marked as complete complete the course', async () => {
    const page = mediaLearner.page
    const [videoId, pdfId] = moduleIds.get(media.title)!
    const modules = (await myCourses(page, baseURL)).find((c) => c.title === media.title)!.modules
    const startedAt = (id: number) => Date.parse(modules.find((m) => m.id === id)!.started_at!)
    const until = async (at: number) => {
      const wait = at - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    }
    // Other triggers need 60 s since the module started (and progress 20); the learner's own 180 s (and 30).
    await until(startedAt(videoId) + 61_000)
    await page.locator('video').evaluate((v: HTMLVideoElement) => {
      v.muted = true
      return v.play()
    })
    await page.getByRole('button', { name: /^1\. safety-video Video Completed\s*, 100%/ }).waitFor()
    await until(startedAt(pdfId) + 181_000)
    await mediaPeer.getByRole('button', { name: 'Mark as Complete' }).click()
    await mediaPeer.getByRole('button', { name: /^2\. handbook PDF Completed\s*, 100%/ }).waitFor()

    const done = await eventually(
      () => myCourses(page, baseURL),
      (list) => list.find((c) => c.title === media.title)?.status === 'completed',
      'course completed',
    )
    expect(done.find((c) => c.title === media.title)!.modules.map((m) => [m.id, m.progress, m.completed_at !== null])).toEqual([
      [videoId, 100, true],
      [pdfId, 100, true],
    ])
    await mediaPeer.getByRole('button', { name: 'Close Course' }).click()
    await courseCard(mediaPeer, media.title).getByText('Completed', { exact: true }).waitFor()
    expect(mediaLearner.errors, report(mediaLearner)).toEqual([])
    await page.context().close()
  }, 240_000)
})

describe('admin keyboard journey', () => {
  /**
   * Signs the admin in and reaches the Courses tab from the top of the page with Tab and the arrow
   * keys. `press` presses a key, waits for the live region of `form` to say `says` and returns
   * what then has focus.
   */
  async function coursesTabByKeyboard() {
    const session = await signIn(browser, baseURL, DEMO.admin)
    const page = session.page
    const focus = () => focusedControl(page)
    await tabTo(page, page.getByRole('tab', { name: 'Exams' }), { max: 40 })
    await page.keyboard.press('ArrowRight')
    await expect.poll(focus).toBe('tab "Courses" [selected]')
    const press = async (form: Locator, key: string, says: string) => {
      await page.keyboard.press(key)
      await form.getByRole('status').filter({ hasText: says }).waitFor()
      return focus()
    }
    return { session, page, focus, press }
  }

  it('keyboard only: Upload New Course opens on its title; moving and removing modules keeps focus in the list and is announced; Cancel, Upload and Delete leave focus on a sensible control', async () => {
    const { session, page, focus, press } = await coursesTabByKeyboard()
    await tabTo(page, page.getByRole('button', { name: 'Upload New Course' }))
    await page.keyboard.press('Enter')

    const form = page.getByRole('form', { name: 'Upload New Course' })
    const title = form.getByLabel('Course Title')
    await expect.poll(focus).toBe('textbox "Course Title"')
    // Enter in the field submits: focus stays on the first field in error, which names its error.
    await page.keyboard.press('Enter')
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true')
    expect(await focus()).toBe('textbox "Course Title" [invalid]')
    expect(await descriptionOf(title)).toBe('Course title is required')
    await page.keyboard.type('Draft')

    // The file picker is the system's own dialog: files are handed to it, the rest is keys.
    const files = form.getByLabel('Module Files')
    await files.setInputFiles(['intro', 'safety', 'wrap-up'].map((name) => ({ name: `${name}.pdf`, mimeType: 'application/pdf', buffer: tinyPdf(name) })))
    await form.getByRole('status').filter({ hasText: '3 modules added; 3 in the course.' }).waitFor()
    await tabTo(page, form.getByRole('button', { name: 'Move down Module 1' }))
    expect(await press(form, 'Enter', "Module 'intro' moved to position 2 of 3")).toBe('button "Move down Module 2"')
    // At the bottom its Move Down turns disabled: focus goes to the same module's Move Up.
    expect(await press(form, 'Enter', "Module 'intro' moved to position 3 of 3")).toBe('button "Move up Module 3"')
    expect(await form.getByLabel('Module 3 title').inputValue()).toBe('intro')
    await tabTo(page, form.getByRole('button', { name: 'Move up Module 2' }), { back: true })
    expect(await press(form, 'Enter', "Module 'wrap-up' moved to position 1 of 3")).toBe('button "Move down Module 1"')
    expect(await form.getByLabel('Module 1 title').inputValue()).toBe('wrap-up')

    // Remove: focus goes to the Remove of the module taking its place, else the one before, else the file picker.
    await page.keyboard.press('Tab')
    expect(await focus()).toBe('button "Remove Module 1"')
    expect(await press(form, 'Enter', "Module 'wrap-up' removed; 2 modules left.")).toBe('button "Remove Module 1"')
    expect(await form.getByLabel('Module 1 title').inputValue()).toBe('safety')
    await tabTo(page, form.getByRole('button', { name: 'Remove Module 2' }))
    expect(await press(form, 'Enter', "Module 'intro' removed; 1 module left.")).toBe('button "Remove Module 1"')
    await press(form, 'Enter', "Module 'safety' removed; no modules left.")
    expect(await files.evaluate((el) => el === document.activeElement)).toBe(true)
    // Submitted once already, so the empty list is an error the picker names.
    expect(await files.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(files)).toContain('At least one module is required')

    await tabTo(page, form.getByRole('button', { name: 'Cancel', exact: true }))
    await page.keyboard.press('Enter')
    await form.waitFor({ state: 'detached' })
    await expect.poll(focus).toBe('button "Upload New Course"')

    // Upload for real (Enter in the title submits): focus comes back to the opener and the notice is read.
    const courseTitle = `Keyboard course ${run}`
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('textbox "Course Title"')
    await page.keyboard.type(courseTitle)
    await files.setInputFiles({ name: 'handbook.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Handbook') })
    await tabTo(page, title, { back: true })
    await page.keyboard.press('Enter')
    await form.waitFor({ state: 'detached', timeout: 60_000 })
    await expect.poll(focus).toBe('button "Upload New Course"')
    await page.getByRole('status').filter({ hasText: 'Course created.' }).waitFor()

    // Deleting it from the table: focus goes to a Delete button of a row that stays.
    const row = courseRow(page, courseTitle)
    await tabTo(page, row.getByRole('button', { name: 'Delete' }))
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('button "Cancel"')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: 'Course deleted.' }).waitFor()
    await row.waitFor({ state: 'detached' })
    expect(await focus()).toBe('button "Delete"')
    expect(session.errors, report(session)).toEqual([])
    await page.context().close()
  })

  it('keyboard only: Edit Course keeps focus through Delete, its confirmation and Undo; the Assign dialog clears its error once a user is ticked and Escape returns to Assign', async () => {
    const { session, page, focus, press } = await coursesTabByKeyboard()
    const demo = 'Field Safety Essentials'
    const lesson = 'Field Safety Essentials: interactive lesson'
    const edit = courseRow(page, demo).getByRole('button', { name: 'Edit', exact: true })
    // The demo course is the oldest, far down a long list: a keyboard user searches for it first.
    await tabTo(page, page.getByLabel('Search courses'))
    await page.keyboard.type(demo)
    await tabTo(page, edit)
    await page.keyboard.press('Enter')
    const form = page.getByRole('form', { name: 'Edit Course' })
    await expect.poll(focus).toBe('textbox "Course Title"')
    expect(await form.getByLabel('Course Title').inputValue()).toBe(demo)

    await tabTo(page, form.getByRole('button', { name: 'Delete Module 1' }))
    await page.keyboard.press('Enter')
    const confirm = page.getByRole('dialog', { name: 'Delete Module' })
    await expect.poll(focus).toBe('button "Cancel"')
    // Escape keeps the module and gives focus back to its Delete.
    await page.keyboard.press('Escape')
    await confirm.waitFor({ state: 'hidden' })
    expect(await focus()).toBe('button "Delete Module 1"')
    await page.keyboard.press('Enter')
    await expect.poll(focus).toBe('button "Cancel"')
    await page.keyboard.press('Tab')
    expect(await focus()).toBe('button "Delete"')
    // Confirmed: the module stays listed with Undo, which takes focus.
    expect(await press(form, 'Enter', `Module '${lesson}' will be deleted when you update the course. Undo keeps it.`)).toBe(`button "Undo delete ${lesson}"`)
    expect(await press(form, 'Enter', `Module '${lesson}' kept at position 1 of 2`)).toBe('button "Delete Module 1"')
    await tabTo(page, form.getByRole('button', { name: 'Cancel', exact: true }))
    await page.keyboard.press('Enter')
    await form.waitFor({ state: 'detached' })
    await expect.poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true)

    const assign = courseRow(page, demo).getByRole('button', { name: 'Assign' })
    await tabTo(page, assign)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: `Assign Course: ${demo}` })
    await expect.poll(focus).toBe('searchbox "Search users"')
    await tabTo(page, dialog.getByRole('button', { name: 'Deselect All' }))
    await page.keyboard.press('Enter')
    await tabTo(page, dialog.getByRole('button', { name: 'Assign', exact: true }))
    await page.keyboard.press('Enter')
    const error = dialog.getByRole('alert').filter({ hasText: 'Please select at least one user' })
    await error.waitFor()
    expect(await descriptionOf(dialog.getByRole('group', { name: 'Users' }))).toBe('Please select at least one user')
    // Focus goes to the search field the refusal marks (WCAG 3.3.1), above the list, once the marks
    // have rendered (the next frame after the alert: polled, as a loaded machine may draw it later).
    await expect.poll(focus).toBe('searchbox "Search users" [invalid]')
    // Ticking one user clears it at once; emptying the list again brings it back; Select All clears it.
    await tabTo(page, dialog.getByRole('checkbox', { name: new RegExp(DEMO.portland.name) }))
    await page.keyboard.press('Space')
    await error.waitFor({ state: 'detached' })
    await tabTo(page, dialog.getByRole('button', { name: 'Deselect All' }), { back: true })
    await page.keyboard.press('Enter')
    await error.waitFor()
    await page.keyboard.press('Shift+Tab')
    expect(await focus()).toBe('button "Select All"')
    await page.keyboard.press('Enter')
    await error.waitFor({ state: 'detached' })
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => assign.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(session.errors, report(session)).toEqual([])
    await page.context().close()
  })
})
