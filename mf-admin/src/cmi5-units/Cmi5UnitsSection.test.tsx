// @vitest-environment happy-dom
import type { Cmi5AuStatus, Cmi5Status, Course } from '@portal/contracts'
import { Modal } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Cmi5UnitsSection } from './Cmi5UnitsSection.tsx'

/** The admin's view of a learner's cmi5 units and the waiver of one (issue 26). */
const grace = { id: '00000000-0000-4000-8000-00000000000a', name: 'Grace Hopper' }
const MODULE = 7

const au = (id: string, title: string, over: Partial<Cmi5AuStatus> = {}): Cmi5AuStatus => ({
  id,
  title,
  moveOn: 'CompletedOrPassed',
  launchMethod: 'AnyWindow',
  completed: false,
  passed: false,
  failed: false,
  satisfied: false,
  waived: false,
  launched: false,
  score: null,
  ...over,
})

const courses: Course[] = [
  {
    id: 3,
    title: 'Geology',
    is_assigned_to_all: false,
    assigned_user_ids: [grace.id],
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    modules: [
      {
        id: MODULE,
        course_id: 3,
        title: 'Rocks package',
        order: 1,
        file_path: 'rocks.zip',
        size: 10,
        is_scorm: true,
        content_type: 'application/zip',
        processing_status: 'ready',
        processing_error: null,
        scorm_version: 'cmi5',
        scorm_edition: null,
        sco_count: 3,
      },
    ],
  },
]

const statusOf = (aus: Cmi5AuStatus[]): Cmi5Status => ({ moduleId: MODULE, registration: null, satisfied: aus.every((a) => a.satisfied), aus })

interface Answers {
  courses?: () => { status: number; json: unknown }
  waive?: (body: unknown) => { status: number; json: unknown }
}

/**
 * Answers GET /api/admin/courses, GET /api/cmi5/7/status?user_id= (the learner's statuses, which a
 * successful waiver changes) and POST /api/cmi5/7/waive; records the status reads and waive bodies.
 */
function answer(aus: Cmi5AuStatus[], answers: Answers = {}) {
  let current = aus
  const waives: unknown[] = []
  const statusReads: string[] = []
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test')
    const method = (init.method ?? 'GET').toUpperCase()
    const reply = (status: number, json: unknown) => new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
    if (method === 'GET' && url.pathname === '/api/admin/courses') {
      const a = answers.courses?.() ?? { status: 200, json: courses }
      return reply(a.status, a.json)
    }
    if (method === 'GET' && url.pathname === `/api/cmi5/${MODULE}/status`) {
      statusReads.push(url.searchParams.get('user_id') ?? '')
      return reply(200, statusOf(current))
    }
    if (method === 'POST' && url.pathname === `/api/cmi5/${MODULE}/waive`) {
      const body = JSON.parse(String(init.body)) as { au_id: string }
      waives.push(body)
      const a = answers.waive?.(body)
      if (a) return reply(a.status, a.json)
      current = current.map((x) => (x.id === body.au_id ? { ...x, waived: true, satisfied: true } : x))
      return reply(200, statusOf(current))
    }
    return reply(599, { message: `No answer for ${method} ${url.pathname}` })
  })
  return { waives, statusReads }
}

/** The section inside a modal dialog, as the Users tab's statistics dialog shows it. */
const show = (onWaived = () => undefined, onCloseOuter = () => undefined) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <Modal open title="User Statistics: Grace Hopper" onClose={onCloseOuter}>
        <Cmi5UnitsSection learner={grace} onWaived={onWaived} />
      </Modal>
    </QueryClientProvider>,
  )

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => [
      within(r).getByRole('rowheader').textContent,
      ...within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ])

afterEach(() => {
  vi.unstubAllGlobals()
})

const THREE = [
  au('https://example.com/au/1', 'Igneous', { completed: true, passed: true, satisfied: true, launched: true, score: 0.9 }),
  au('https://example.com/au/2', 'Sedimentary', { failed: true, launched: true, score: 0.4 }),
  au('https://example.com/au/3', 'Metamorphic'),
]

describe('cmi5 units of a learner', () => {
  it('lists each unit of the learner’s cmi5 modules with its status in words, and Waive for those not satisfied', async () => {
    const { statusReads } = answer(THREE)
    show()
    const table = await screen.findByRole('table', { name: 'Units of Geology: Rocks package' })
    expect(screen.getByRole('heading', { name: 'Geology: Rocks package' })).toBeTruthy()
    expect(rowsOf(table)).toEqual([
      ['Igneous', 'Completed, Passed · Score 90%', ''],
      ['Sedimentary', 'Failed · Score 40%', 'Waive'],
      ['Metamorphic', 'Not started', 'Waive'],
    ])
    expect(
      within(table)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Waive Sedimentary', 'Waive Metamorphic'])
    expect(statusReads).toEqual([grace.id])
  })

  it('waives a unit with the reason chosen: the POST body, the list fetched again, the success announced and focus on the unit', async () => {
    const { waives, statusReads } = answer(THREE)
    const onWaived = vi.fn()
    show(onWaived)
    fireEvent.click(await screen.findByRole('button', { name: 'Waive Metamorphic' }))
    const dialog = screen.getByRole('dialog', { name: 'Waive unit: Metamorphic' })
    expect(dialog.textContent).toContain('will count as done for Grace Hopper')
    expect(dialog.textContent).toContain('recorded in the audit trail')
    const reason = within(dialog).getByRole('combobox', { name: 'Reason' }) as HTMLSelectElement
    expect(document.activeElement).toBe(reason)
    expect([...reason.options].map((o) => o.textContent)).toEqual(['Select a reason', 'Tested Out', 'Equivalent AU', 'Equivalent Outside Activity', 'Administrative'])
    fireEvent.change(reason, { target: { value: 'Tested Out' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive unit' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Waive unit: Metamorphic' })).toBeNull())
    expect(waives).toEqual([{ au_id: 'https://example.com/au/3', reason: 'Tested Out', user_id: grace.id }])
    // Read once to show the list, once more after the waiver (the query invalidated).
    expect(statusReads).toEqual([grace.id, grace.id])
    const table = screen.getByRole('table', { name: 'Units of Geology: Rocks package' })
    expect(rowsOf(table)[2]).toEqual(['Metamorphic', 'Waived', ''])
    expect(within(table).queryByRole('button', { name: 'Waive Metamorphic' })).toBeNull()
    expect(screen.getByText('“Metamorphic” waived for Grace Hopper.').closest('[role="status"]')).toBeTruthy()
    expect(onWaived).toHaveBeenCalledTimes(1)
    // Its Waive button is gone: focus goes to the unit's row.
    await waitFor(() => expect(document.activeElement).toBe(within(table).getByRole('rowheader', { name: 'Metamorphic' })))
  })

  it('asks for a reason before sending anything', async () => {
    const { waives } = answer(THREE)
    show()
    fireEvent.click(await screen.findByRole('button', { name: 'Waive Sedimentary' }))
    const dialog = screen.getByRole('dialog', { name: 'Waive unit: Sedimentary' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive unit' }))
    const reason = within(dialog).getByRole('combobox', { name: 'Reason', description: 'Choose why the unit is waived' })
    expect(reason.getAttribute('aria-invalid')).toBe('true')
    expect(waives).toEqual([])
  })

  it.each([
    [
      'already waived (409)',
      { status: 409, json: { message: 'This AU is already waived for this learner', code: 'already_waived' } },
      'This AU is already waived for this learner',
    ],
    ['forbidden (403)', { status: 403, json: { message: 'Admin access required', code: 'forbidden' } }, 'Admin access required'],
  ])('shows the server’s refusal in the dialog, which stays open: %s', async (_, refusal, message) => {
    const { statusReads } = answer(THREE, { waive: () => refusal })
    const onWaived = vi.fn()
    show(onWaived)
    fireEvent.click(await screen.findByRole('button', { name: 'Waive Sedimentary' }))
    const dialog = screen.getByRole('dialog', { name: 'Waive unit: Sedimentary' })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Reason' }), { target: { value: 'Administrative' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive unit' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message)
    expect(screen.getByRole('dialog', { name: 'Waive unit: Sedimentary' })).toBe(dialog)
    expect(onWaived).not.toHaveBeenCalled()
    // The list is read again, so it shows what the server has (a unit waived meanwhile).
    await waitFor(() => expect(statusReads).toHaveLength(2))
  })

  it('shows a network failure in the dialog', async () => {
    answer(THREE)
    show()
    fireEvent.click(await screen.findByRole('button', { name: 'Waive Sedimentary' }))
    const dialog = screen.getByRole('dialog', { name: 'Waive unit: Sedimentary' })
    const fetching = globalThis.fetch
    vi.stubGlobal('fetch', (input: string | URL | Request, init: RequestInit = {}) =>
      (init.method ?? 'GET').toUpperCase() === 'POST' ? Promise.reject(new TypeError('Failed to fetch')) : fetching(input, init),
    )
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Reason' }), { target: { value: 'Equivalent AU' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive unit' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to waive the unit')
  })

  it('Cancel and Escape close the dialog only, and focus goes back to the unit’s Waive button', async () => {
    const { waives } = answer(THREE)
    const onCloseOuter = vi.fn()
    show(undefined, onCloseOuter)
    const button = await screen.findByRole('button', { name: 'Waive Metamorphic' })
    button.focus()
    fireEvent.click(button)
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Waive unit: Metamorphic' })).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog', { name: 'Waive unit: Metamorphic' })).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Waive Metamorphic' })))

    fireEvent.click(screen.getByRole('button', { name: 'Waive Metamorphic' }))
    // Escape: the native dialog's cancel event, on the waiver's dialog (nested in the statistics dialog).
    fireEvent(screen.getByRole('dialog', { name: 'Waive unit: Metamorphic' }), new Event('cancel', { cancelable: true }))
    expect(screen.queryByRole('dialog', { name: 'Waive unit: Metamorphic' })).toBeNull()
    expect(onCloseOuter).not.toHaveBeenCalled()
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Waive Metamorphic' })))
    expect(waives).toEqual([])
  })

  it('says so when the learner has no cmi5 course, and when the courses cannot be read', async () => {
    answer(THREE, { courses: () => ({ status: 200, json: [{ ...courses[0]!, assigned_user_ids: [] }] }) })
    const first = show()
    expect(await screen.findByText('No cmi5 courses assigned')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
    first.unmount()
    answer(THREE, { courses: () => ({ status: 500, json: { message: 'Database unavailable', code: 'internal' } }) })
    show()
    expect((await screen.findByRole('alert')).textContent).toBe('Database unavailable')
  })

  it('shows the loading state while the units are read', async () => {
    answer(THREE)
    show()
    expect(screen.getByText('Loading cmi5 units...').closest('[role="status"]')).toBeTruthy()
    expect(await screen.findByText('Loading the units of Rocks package...')).toBeTruthy()
    await screen.findByRole('table', { name: 'Units of Geology: Rocks package' })
    expect(screen.queryByText('Loading the units of Rocks package...')).toBeNull()
  })
})
