// @vitest-environment happy-dom
import { SCORM_EDITOR_MESSAGES as M, type ScormAnalyzeResponse } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAdminQueryClient } from '../../query-client.ts'
import { scormEditorKeys } from './data/apiHooks.ts'
import { ScormTimingEditor } from './ScormTimingEditor.tsx'

afterEach(() => vi.unstubAllGlobals())

describe('SCORM Timing Editor of a stored module', () => {
  it('says in plain words that a package without a Captivate project has nothing to edit, and ends with Close', async () => {
    // The service's answers for a SCORM package made with another tool.
    vi.stubGlobal('fetch', async (input: string | URL | Request) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test').pathname
      const [status, body] =
        path === '/api/scorm-editor/analyze'
          ? [422, { message: M.unreadable, code: 'project_unreadable' }]
          : path === '/api/scorm-editor/backups/4'
            ? [200, { backups: [] }]
            : [404, { message: 'Not found', code: 'not_found' }]
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    })
    render(
      <QueryClientProvider client={createAdminQueryClient()}>
        <ScormTimingEditor module={{ id: 4, title: 'Golf Basics' }} onClose={() => undefined} />
      </QueryClientProvider>,
    )
    const dialog = screen.getByRole('dialog', { name: 'SCORM Timing Editor: Golf Basics' })
    expect(await within(dialog).findByText(M.notCaptivateModule)).toBeTruthy()
    expect(within(dialog).queryByText(M.unreadable)).toBeNull()
    // Nothing to back up or verify either: Close is the dialog's one control (beside its corner close button), at its end.
    expect(within(dialog).queryByRole('heading', { name: 'Backups' })).toBeNull()
    const buttons = within(dialog).getAllByRole('button')
    expect(buttons.at(-1)!.textContent).toBe('Close')
  })
})

const slide = (id: string, name: string, video: string | null) => ({
  id,
  title: name,
  name,
  durationInSeconds: 30,
  durationInFrames: 900,
  durationFormatted: '00:30',
  video,
})
const analysis = {
  referencedVideo: 'intro.mp4',
  videos: [],
  videoSlides: [slide('s1', 'Intro', 'intro.mp4'), slide('s2', 'Quiz', null)],
  frameRate: 30,
} satisfies ScormAnalyzeResponse['analysis']

const show = () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false }, mutations: { retry: false } } })
  // The analysis as the server gave it (the module itself is not read by the form).
  client.setQueryData<Pick<ScormAnalyzeResponse, 'analysis'>>(scormEditorKeys.analysis(4), { analysis })
  client.setQueryData(scormEditorKeys.backups(4), { backups: [] })
  return render(
    <QueryClientProvider client={client}>
      <ScormTimingEditor module={{ id: 4, title: 'Lesson' }} onClose={() => undefined} />
    </QueryClientProvider>,
  )
}

const requests = vi.fn()

describe('SCORM Timing Editor: a refused edit', () => {
  // No request leaves these tests: whatever is not in the cache stays loading.
  beforeEach(() => {
    requests.mockReset()
    vi.stubGlobal('fetch', (...args: unknown[]) => {
      requests(...args)
      return new Promise(() => undefined)
    })
  })
  it('marks a malformed duration on its field, described by the message, with focus there, and sends nothing', async () => {
    show()
    const form = screen.getByRole('form', { name: 'Edit slide timing' })
    fireEvent.change(within(form).getByRole('combobox', { name: 'Slide' }), { target: { value: 's1' } })
    fireEvent.change(within(form).getByRole('textbox', { name: 'New Duration' }), { target: { value: '1:2:3:4' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }))
    const duration = within(form).getByRole('textbox', { name: 'New Duration', description: 'Enter the duration as MM:SS or HH:MM:SS MM:SS or HH:MM:SS' })
    expect(duration.getAttribute('aria-invalid')).toBe('true')
    expect(within(form).getByRole('combobox', { name: 'Slide' }).hasAttribute('aria-invalid')).toBe(false)
    await waitFor(() => expect(document.activeElement).toBe(duration))
    expect(requests.mock.calls.filter(([url]) => String(url).includes('edit-timing'))).toEqual([])
  })

  it('marks the slide when the chosen one has no video to retime', async () => {
    show()
    const form = screen.getByRole('form', { name: 'Edit slide timing' })
    fireEvent.change(within(form).getByRole('combobox', { name: 'Slide' }), { target: { value: 's2' } })
    fireEvent.change(within(form).getByRole('textbox', { name: 'New Duration' }), { target: { value: '00:45' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }))
    const select = within(form).getByRole('combobox', { name: 'Slide', description: M.noVideo })
    expect(select.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(select))
  })
})
