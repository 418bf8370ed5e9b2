// @vitest-environment happy-dom
import type { Cmi5AuStatus, Cmi5Launch, Cmi5Status, LearnerModule } from '@portal/contracts'
import { ToastProvider } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, json } from '../test-support/index.ts'
import { auActionLabel, auStatusLabels, cmi5PlaceOf, cmi5ReturnMessage, isCmi5Return } from './cmi5.ts'
import { Cmi5Player, CMI5_TEXT } from './Cmi5Player.tsx'
import { ModulePlayer } from './ModulePlayer.tsx'
import { PLAYER_SANDBOX } from './ScormPlayer.tsx'

const CONTENT = 'http://content.test:8081'
const MODULE_ID = 5

const module: LearnerModule = {
  id: MODULE_ID,
  course_id: 1,
  title: 'Ladder Safety (cmi5)',
  order: 1,
  file_path: 'ladder.zip',
  size: 10,
  is_scorm: true,
  content_type: 'application/zip',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: 'cmi5',
  scorm_edition: null,
  sco_count: 3,
  is_unlocked: true,
  started_at: null,
  completed_at: null,
  progress: 0,
  last_accessed: null,
}

const au = (id: string, over: Partial<Cmi5AuStatus> = {}): Cmi5AuStatus => ({
  id: `https://example.com/au/${id}`,
  title: `Unit ${id}`,
  moveOn: 'Completed',
  launchMethod: 'AnyWindow',
  completed: false,
  passed: false,
  failed: false,
  satisfied: false,
  waived: false,
  score: null,
  launched: false,
  ...over,
})

const statusOf = (aus: Cmi5AuStatus[], satisfied = false): Cmi5Status => ({ moduleId: MODULE_ID, registration: '0f8b5a3e-8b89-4a53-9f3e-5d1c2b7a9e10', satisfied, aus })

const launchOf = (auId: string, url: string, launchMethod: Cmi5Launch['launchMethod'] = 'AnyWindow'): Cmi5Launch => ({
  url,
  launchMethod,
  moduleId: MODULE_ID,
  au_id: auId,
  registration: '0f8b5a3e-8b89-4a53-9f3e-5d1c2b7a9e10',
  session_id: '7d3c1c8e-3f4b-4f62-8d59-3f1a3d6f0a11',
  expiresAt: '2026-11-28T18:00:00Z',
})

const STATUS_URL = `GET /api/cmi5/${MODULE_ID}/status`
const LAUNCH_URL = `POST /api/cmi5/${MODULE_ID}/launch`

function show(onSatisfied = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  renderDom(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <Cmi5Player module={module} contentOrigin={CONTENT} onGoBack={() => undefined} onSatisfied={onSatisfied} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  return { client, onSatisfied }
}

/** A window as window.open hands it back (the test plays the AU's window). */
function fakeWindow() {
  const w = { closed: false, opener: {} as unknown, focus: vi.fn(), close: vi.fn(() => void (w.closed = true)), location: { replace: vi.fn() } }
  return w
}

/** The return page's message as the browser delivers it. */
const postReturn = (source: unknown, origin = CONTENT, moduleId = MODULE_ID) =>
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data: cmi5ReturnMessage(moduleId), origin, source: source as Window }))
  })

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the words of an AU’s status', () => {
  it('say what the unit reached, in plain words', () => {
    expect(auStatusLabels(au('a'))).toEqual(['Not started'])
    expect(auStatusLabels(au('a', { launched: true }))).toEqual(['In progress'])
    expect(auStatusLabels(au('a', { launched: true, completed: true, satisfied: true }))).toEqual(['Completed'])
    expect(auStatusLabels(au('a', { launched: true, passed: true }))).toEqual(['Passed'])
    expect(auStatusLabels(au('a', { launched: true, completed: true, failed: true }))).toEqual(['Completed', 'Failed'])
    expect(auStatusLabels(au('a', { launched: true, moveOn: 'NotApplicable', satisfied: true }))).toEqual(['Satisfied'])
    expect(auStatusLabels(au('a', { waived: true, satisfied: true }))).toEqual(['Waived'])
    const labels = [
      au('a'),
      au('a', { launched: true }),
      au('a', { launched: true, failed: true }),
      au('a', { launched: true, completed: true, moveOn: 'CompletedAndPassed' }),
      au('a', { launched: true, satisfied: true }),
      au('a', { launched: true, waived: true, satisfied: true }),
      // Satisfied before any launch (NotApplicable, waived): still to start.
      au('a', { moveOn: 'NotApplicable', satisfied: true }),
      au('a', { waived: true, satisfied: true }),
    ].map(auActionLabel)
    expect(labels).toEqual(['Start', 'Resume', 'Resume', 'Resume', 'Open again', 'Open again', 'Start', 'Start'])
  })

  it('take only the return message of this module', () => {
    expect(isCmi5Return({ type: 'portal:cmi5-return', moduleId: 5 }, 5)).toBe(true)
    expect(isCmi5Return({ type: 'portal:cmi5-return', moduleId: 6 }, 5)).toBe(false)
    expect(isCmi5Return({ type: 'portal:cmi5-return', moduleId: '5' }, 5)).toBe(false)
    expect(isCmi5Return('portal:cmi5-return', 5)).toBe(false)
  })

  it('play an AnyWindow AU of the content origin in the frame, any other in a window of its own', () => {
    expect(cmi5PlaceOf({ url: `${CONTENT}/api/content/t/a.html?x=1`, launchMethod: 'AnyWindow' }, CONTENT)).toEqual({
      kind: 'frame',
      url: `${CONTENT}/api/content/t/a.html?x=1`,
      origin: CONTENT,
    })
    expect(cmi5PlaceOf({ url: `${CONTENT}/api/content/t/a.html`, launchMethod: 'OwnWindow' }, CONTENT)).toMatchObject({ kind: 'window', sameContentOrigin: true })
    expect(cmi5PlaceOf({ url: 'https://aus.example.com/a.html', launchMethod: 'AnyWindow' }, CONTENT)).toMatchObject({ kind: 'window', sameContentOrigin: false })
    // Launched for another content origin than this address's: it could not be framed here.
    expect(cmi5PlaceOf({ url: 'http://other.test:8081/api/content/t/a.html', launchMethod: 'AnyWindow' }, CONTENT)).toMatchObject({ kind: 'window', sameContentOrigin: false })
    expect(cmi5PlaceOf({ url: 'http://other.test:8081/api/content/t/a.html', launchMethod: 'AnyWindow' }, null)).toMatchObject({ kind: 'frame' })
  })
})

describe('a cmi5 module in the viewer', () => {
  it('lists its units by title with their status, score and a button each', async () => {
    answerApi({
      [STATUS_URL]: () =>
        json(
          statusOf([
            au('1', { title: 'Introduction' }),
            au('2', { title: 'Quiz', moveOn: 'Passed', launched: true, failed: true, score: 0.4 }),
            au('3', { title: 'Field work', launchMethod: 'OwnWindow', launched: true, completed: true, satisfied: true }),
            au('4', { title: 'Refresher', waived: true, satisfied: true }),
          ]),
        ),
    })
    show()
    const list = await screen.findByRole('list', { name: 'Units' })
    const rows = within(list).getAllByRole('listitem')
    expect(rows).toHaveLength(4)
    const intro = within(list).getByRole('listitem', { name: 'Introduction' })
    expect(within(intro).getByText('Not started')).toBeTruthy()
    expect(within(intro).getByRole('button', { name: 'Start', description: 'Introduction' })).toBeTruthy()
    const quiz = within(list).getByRole('listitem', { name: 'Quiz' })
    expect(within(quiz).getByText('Failed · Score 40%')).toBeTruthy()
    expect(within(quiz).getByRole('button', { name: 'Resume', description: 'Quiz' })).toBeTruthy()
    const field = within(list).getByRole('listitem', { name: 'Field work' })
    expect(within(field).getByText('Completed · Opens in a new window')).toBeTruthy()
    expect(within(field).getByRole('button', { name: 'Open again', description: 'Field work' })).toBeTruthy()
    expect(within(within(list).getByRole('listitem', { name: 'Refresher' })).getByText('Waived')).toBeTruthy()
    expect(screen.getByText(CMI5_TEXT.todo)).toBeTruthy()
    // Keyboard: Tab reaches each unit's button in order.
    const user = userEvent.setup()
    await user.tab()
    expect(document.activeElement).toBe(within(intro).getByRole('button'))
    await user.tab()
    expect(document.activeElement).toBe(within(quiz).getByRole('button'))
  })

  it('says so when the module has no units, and shows a loading state before the statuses arrive', async () => {
    let answer: (r: Response) => void = () => undefined
    answerApi({ [STATUS_URL]: () => new Promise<Response>((r) => (answer = r)) })
    show()
    expect(screen.getByRole('status').textContent).toContain('Loading units...')
    answer(json(statusOf([])))
    expect(await screen.findByText(CMI5_TEXT.noUnits)).toBeTruthy()
  })

  it('shows the load error with Go Back and Try Again when the statuses cannot be read', async () => {
    answerApi({ [STATUS_URL]: () => json({ message: 'Module not found', code: 'not_found' }, 404) })
    show()
    expect(await screen.findByText('Error Loading Course')).toBeTruthy()
    expect(screen.getByText('Module not found')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy()
  })

  it('plays an AnyWindow AU in the sandboxed content frame and closes it on the return page’s message from that frame', async () => {
    const url = `${CONTENT}/api/content/tok/intro.html?endpoint=${encodeURIComponent(`${CONTENT}/api/lrs/`)}`
    // The AU completes before it returns: the statuses read after the return say so.
    let done = false
    const { calls } = answerApi({
      [STATUS_URL]: () => json(statusOf([au('1', { title: 'Introduction', launched: done, completed: done, satisfied: done })], done)),
      [LAUNCH_URL]: (init) => {
        expect(JSON.parse(String(init.body))).toEqual({ au_id: 'https://example.com/au/1' })
        return json(launchOf('https://example.com/au/1', url))
      },
    })
    const open = vi.spyOn(window, 'open')
    const { onSatisfied } = show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Introduction' }))
    const frame = (await screen.findByTitle('Introduction')) as HTMLIFrameElement
    expect(frame.tagName).toBe('IFRAME')
    expect(frame.getAttribute('src')).toBe(url)
    expect(frame.getAttribute('sandbox')).toBe(PLAYER_SANDBOX)
    expect(frame.getAttribute('allow')).toBe('fullscreen; autoplay; deferred-fetch')
    expect(open).not.toHaveBeenCalled()
    expect(calls).toContain(LAUNCH_URL)
    // The test plays the frame's window (happy-dom loads no page of another origin).
    const auWindow = { parent: window } as unknown as Window
    Object.defineProperty(frame, 'contentWindow', { value: auWindow })

    // Another module's message, another origin's, or one not from the frame: ignored.
    postReturn(auWindow, CONTENT, 6)
    postReturn(auWindow, 'http://evil.test')
    postReturn(window)
    expect(screen.getByTitle('Introduction')).toBeTruthy()

    done = true
    postReturn(auWindow)
    await waitFor(() => expect(screen.queryByTitle('Introduction')).toBeNull())
    const button = await screen.findByRole('button', { name: 'Open again', description: 'Introduction' })
    await waitFor(() => expect(document.activeElement).toBe(button))
    expect(onSatisfied).toHaveBeenCalledTimes(1)
    expect(screen.getByText(CMI5_TEXT.done)).toBeTruthy()
  })

  it('opens an OwnWindow AU in its own window, says so with a way back, and closes it on the return message', async () => {
    const url = `${CONTENT}/api/content/tok/field.html?fetch=x`
    answerApi({
      [STATUS_URL]: () => json(statusOf([au('3', { title: 'Field work', launchMethod: 'OwnWindow' })])),
      [LAUNCH_URL]: () => json(launchOf('https://example.com/au/3', url, 'OwnWindow')),
    })
    const win = fakeWindow()
    const open = vi.spyOn(window, 'open').mockReturnValue(win as unknown as Window)
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Field work' }))
    expect(await screen.findByText(CMI5_TEXT.otherWindow)).toBeTruthy()
    // Opened in the click, then sent to the launch URL; the content origin's window keeps its opener (the return page posts to it).
    expect(open).toHaveBeenCalledWith('about:blank', `cmi5-au-${MODULE_ID}`)
    expect(win.location.replace).toHaveBeenCalledWith(url)
    expect(win.opener).not.toBeNull()
    expect(win.focus).toHaveBeenCalled()

    postReturn(win)
    expect(await screen.findByRole('button', { name: 'Start', description: 'Field work' })).toBeTruthy()
    expect(win.close).toHaveBeenCalled()
  })

  it('closes the other-window view once the statuses say the AU’s session has ended (no message crosses the portal’s COOP)', async () => {
    const url = `${CONTENT}/api/content/tok/field.html?fetch=x`
    let session: boolean | undefined
    answerApi({
      [STATUS_URL]: () =>
        json(statusOf([au('3', { title: 'Field work', launchMethod: 'OwnWindow', launched: session !== undefined, open: session, completed: session === false })])),
      [LAUNCH_URL]: () => {
        session = true
        return json(launchOf('https://example.com/au/3', url, 'OwnWindow'))
      },
    })
    vi.spyOn(window, 'open').mockReturnValue(fakeWindow() as unknown as Window)
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Field work' }))
    expect(await screen.findByText(CMI5_TEXT.otherWindow)).toBeTruthy()
    // Still open: the view stays.
    act(() => void window.dispatchEvent(new Event('focus')))
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.getByText(CMI5_TEXT.otherWindow)).toBeTruthy()
    // Terminated in the other window: the next reading closes the view.
    session = false
    act(() => void window.dispatchEvent(new Event('focus')))
    expect(await screen.findByRole('button', { name: 'Resume', description: 'Field work' })).toBeTruthy()
    expect(screen.queryByText(CMI5_TEXT.otherWindow)).toBeNull()
  })

  it('opens an AU of another origin without an opener, and Return to the course leaves the window state', async () => {
    const url = 'https://aus.example.com/unit.html?endpoint=x'
    answerApi({
      [STATUS_URL]: () => json(statusOf([au('9', { title: 'Vendor unit' })])),
      [LAUNCH_URL]: () => json(launchOf('https://example.com/au/9', url)),
    })
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Vendor unit' }))
    expect(await screen.findByText(CMI5_TEXT.otherWindow)).toBeTruthy()
    expect(open).toHaveBeenCalledWith(url, `cmi5-au-${MODULE_ID}`, 'noopener')
    await user.click(screen.getByRole('button', { name: 'Return to the course' }))
    expect(await screen.findByRole('list', { name: 'Units' })).toBeTruthy()
  })

  it('says why when a launch fails, and keeps the list', async () => {
    answerApi({
      [STATUS_URL]: () => json(statusOf([au('1', { title: 'Introduction' })])),
      [LAUNCH_URL]: () => json({ message: 'This unit cannot be launched now', code: 'cmi5_launch' }, 409),
    })
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Introduction' }))
    expect((await screen.findByRole('alert')).textContent).toContain('This unit cannot be launched now')
    expect(screen.getByRole('list', { name: 'Units' })).toBeTruthy()
  })

  it('reads the statuses again when the window gets focus (the learner back from the AU’s window or an admin’s waiver)', async () => {
    let waived = false
    answerApi({ [STATUS_URL]: () => json(statusOf([au('7', { title: 'Refresher', waived, satisfied: waived })], waived)) })
    const { onSatisfied } = show()
    const row = await screen.findByRole('listitem', { name: 'Refresher' })
    expect(within(row).getByText('Not started')).toBeTruthy()
    waived = true
    act(() => void window.dispatchEvent(new Event('focus')))
    expect(await within(row).findByText('Waived')).toBeTruthy()
    await waitFor(() => expect(onSatisfied).toHaveBeenCalledTimes(1))
  })

  it('reads the statuses again every 5 seconds while an AU is open', async () => {
    let reads = 0
    answerApi({
      [STATUS_URL]: () => (reads++, json(statusOf([au('1', { title: 'Introduction' })]))),
      [LAUNCH_URL]: () => json(launchOf('https://example.com/au/1', `${CONTENT}/api/content/tok/intro.html`)),
    })
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Start', description: 'Introduction' }))
    await screen.findByTitle('Introduction')
    const before = reads
    await waitFor(() => expect(reads).toBeGreaterThan(before), { timeout: 7_000 })
  }, 10_000)

  it('in the module player: no fallback of the progress tracker completes it (its AUs’ moveOn alone does), not even leaving the page above 70 %', async () => {
    const { calls } = answerApi({
      '/remote-registry.json': () => json({ message: 'not here' }, 404),
      [STATUS_URL]: () => json(statusOf([au('1', { title: 'Introduction' })])),
    })
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const view = renderDom(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <ModulePlayer
            module={{ ...module, progress: 80, started_at: '2026-11-28T10:00:00Z' }}
            courseId={1}
            onProgress={() => undefined}
            onCompleted={() => undefined}
            onGoBack={() => undefined}
          />
        </ToastProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByRole('list', { name: 'Units' })).toBeTruthy()
    // No Mark as Complete for a cmi5 module.
    expect(screen.queryByRole('button', { name: 'Mark as Complete' })).toBeNull()
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    for (let i = 0; i < 5; i++) document.dispatchEvent(new Event('visibilitychange'))
    window.dispatchEvent(new Event('pagehide'))
    view.unmount()
    Reflect.deleteProperty(document, 'visibilityState')
    expect(calls.filter((c) => c.includes('/api/modules/'))).toEqual([])
  })
})
