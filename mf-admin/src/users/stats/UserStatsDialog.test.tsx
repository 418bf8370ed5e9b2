// @vitest-environment happy-dom
import type { Cmi5Status, Course, User, UserStats } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { courseKeys } from '../../courses/index.ts'
import { userKeys } from '../data/apiHooks.ts'
import { UserStatsDialog } from './UserStatsDialog.tsx'

const user = { id: 'u1', name: 'Grace Hopper' } as User
const stats: UserStats = {
  examsTaken: 2,
  averageScore: 72.5,
  highestScore: 90,
  lowestScore: 55,
  coursesStarted: 3,
  coursesCompleted: 1,
  averageCourseProgress: 53.3,
  examHistory: [
    { examId: 1, examName: 'Electrical Safety', score: 90, passed: true, completedAt: '2026-11-20T10:00:00.000Z' },
    { examId: 2, examName: 'Ladders', score: 55, passed: false, completedAt: '2026-11-19T10:00:00.000Z' },
  ],
  courseHistory: [
    { courseId: 1, courseName: 'Golf Basics', progress: 100, completedAt: '2026-11-18T10:00:00.000Z', lastAccessed: '2026-11-18T10:00:00.000Z' },
    { courseId: 2, courseName: 'Arc Flash', progress: 60, completedAt: null, lastAccessed: '2026-11-17T10:00:00.000Z' },
    { courseId: 3, courseName: 'Forklifts', progress: 0, completedAt: null, lastAccessed: null },
  ],
}

const render = (data?: UserStats, courses: Course[] = []) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false }, mutations: { retry: false } } })
  if (data) client.setQueryData(userKeys.stats(user.id), data)
  client.setQueryData(courseKeys.list(), courses)
  renderDom(
    <QueryClientProvider client={client}>
      <UserStatsDialog user={user} onClose={() => undefined} />
    </QueryClientProvider>,
  )
  return screen.getByRole('dialog', { name: 'User Statistics: Grace Hopper' })
}

/** The cells of each body row of a table, as text. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    )

describe('User statistics dialog', () => {
  it('shows every figure of §3 and both histories with their badges (§4, §9)', () => {
    const dialog = render(stats)
    const terms = within(dialog)
      .getAllByRole('term')
      .map((t) => t.textContent)
    const values = within(dialog)
      .getAllByRole('definition')
      .map((d) => d.textContent)
    expect(terms.map((t, i) => [t, values[i]])).toEqual([
      ['Exams Taken', '2'],
      ['Average Score', '72.5%'],
      ['Highest Score', '90%'],
      ['Lowest Score', '55%'],
      ['Courses Started', '3'],
      ['Courses Completed', '1'],
      ['Average Course Progress', '53.3%'],
    ])
    const exams = within(dialog).getByRole('table', { name: 'Exam history' })
    expect(
      within(exams)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Exam', 'Score', 'Completed'])
    expect(rowsOf(exams).map((r) => r.slice(0, 2))).toEqual([
      ['Electrical Safety', '90% Passed'],
      ['Ladders', '55% Failed'],
    ])
    // The score's colour (the tone class) beside the words that say the same.
    expect(within(exams).getByText('90%').className).toBe('pk-tone pk-tone--green')
    expect(within(exams).getByText('55%').className).toBe('pk-tone pk-tone--red')
    const courses = within(dialog).getByRole('table', { name: 'Course history' })
    expect(
      within(courses)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Course', 'Progress', 'Completed', 'Last Accessed'])
    expect(rowsOf(courses).map((r) => r.slice(0, 2))).toEqual([
      ['Golf Basics', 'Completed'],
      ['Arc Flash', '60% Complete'],
      ['Forklifts', 'Not Started'],
    ])
    expect(within(courses).getByText('Completed', { selector: 'td > span' }).className).toBe('pk-tone pk-tone--green')
    expect(within(courses).getByText('60% Complete').className).toBe('pk-tone pk-tone--blue')
    expect(within(courses).getByText('Not Started').className).toBe('pk-tone pk-tone--grey')
  })

  it('says so when there is no history yet', () => {
    const dialog = render({ ...stats, examHistory: [], courseHistory: [] })
    expect(within(dialog).getByText('No exams taken yet')).toBeTruthy()
    expect(within(dialog).getByText('No courses yet')).toBeTruthy()
    expect(within(dialog).queryByRole('table')).toBeNull()
  })

  it('says "No data yet" for the scores of someone with no exams, as the dashboard does, not 0%', () => {
    const dialog = render({
      ...stats,
      examsTaken: 0,
      averageScore: 0,
      highestScore: 0,
      lowestScore: 0,
      coursesStarted: 0,
      coursesCompleted: 0,
      averageCourseProgress: 0,
      examHistory: [],
      courseHistory: [],
    })
    const values = Object.fromEntries(
      within(dialog)
        .getAllByRole('term')
        .map((t) => [t.textContent, (t.nextElementSibling as HTMLElement).textContent]),
    )
    expect(values).toEqual({
      'Exams Taken': '0',
      'Average Score': '—No data yet',
      'Highest Score': '—No data yet',
      'Lowest Score': '—No data yet',
      'Courses Started': '0',
      'Courses Completed': '0',
      'Average Course Progress': '—No data yet',
    })
    // The dash is for the eye; a screen reader hears the words.
    expect(within(dialog).getAllByText('—')[0]!.getAttribute('aria-hidden')).toBe('true')
    expect(within(dialog).queryByText('0%')).toBeNull()
  })
})

describe('User statistics dialog: cmi5 units', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  const learner = { ...user, id: '00000000-0000-4000-8000-00000000000a' } as User
  const cmi5Course: Course = {
    id: 3,
    title: 'Geology',
    is_assigned_to_all: true,
    assigned_user_ids: [],
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    modules: [
      {
        id: 7,
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
        sco_count: 1,
      },
    ],
  }
  const unit = {
    id: 'https://example.com/au/1',
    title: 'Igneous',
    moveOn: 'Passed',
    launchMethod: 'AnyWindow',
    completed: false,
    passed: false,
    failed: false,
    satisfied: false,
    waived: false,
    score: null,
  } as const

  it('lists the learner’s cmi5 units below the histories; a waiver fetches the figures again and Escape in its dialog leaves the statistics open', async () => {
    let waived = false
    const statsReads: string[] = []
    vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test')
      const method = (init.method ?? 'GET').toUpperCase()
      const reply = (json: unknown) => new Response(JSON.stringify(json), { status: 200, headers: { 'Content-Type': 'application/json' } })
      const status = (): Cmi5Status => ({ moduleId: 7, registration: null, satisfied: waived, aus: [{ ...unit, waived, satisfied: waived }] })
      if (method === 'GET' && url.pathname === '/api/cmi5/7/status') return reply(status())
      if (method === 'POST' && url.pathname === '/api/cmi5/7/waive') {
        waived = true
        return reply(status())
      }
      if (method === 'GET' && url.pathname === `/api/users/${learner.id}/stats`) {
        statsReads.push(url.pathname)
        return reply({ ...stats, coursesCompleted: 2 })
      }
      return new Response(JSON.stringify({ message: `No answer for ${method} ${url.pathname}` }), { status: 599 })
    })
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false }, mutations: { retry: false } } })
    client.setQueryData(userKeys.stats(learner.id), stats)
    client.setQueryData(courseKeys.list(), [cmi5Course])
    const onClose = vi.fn()
    renderDom(
      <QueryClientProvider client={client}>
        <UserStatsDialog user={learner} onClose={onClose} />
      </QueryClientProvider>,
    )
    const dialog = screen.getByRole('dialog', { name: 'User Statistics: Grace Hopper' })
    expect(within(dialog).getByRole('region', { name: 'cmi5 Units' })).toBeTruthy()
    const table = await within(dialog).findByRole('table', { name: 'Units of Geology: Rocks package' })
    fireEvent.click(within(table).getByRole('button', { name: 'Waive Igneous' }))
    fireEvent(screen.getByRole('dialog', { name: 'Waive unit: Igneous' }), new Event('cancel', { cancelable: true }))
    expect(screen.queryByRole('dialog', { name: 'Waive unit: Igneous' })).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.click(within(table).getByRole('button', { name: 'Waive Igneous' }))
    const waive = screen.getByRole('dialog', { name: 'Waive unit: Igneous' })
    fireEvent.change(within(waive).getByRole('combobox', { name: 'Reason' }), { target: { value: 'Equivalent Outside Activity' } })
    fireEvent.click(within(waive).getByRole('button', { name: 'Waive unit' }))
    await waitFor(() => expect(within(table).getByRole('row', { name: /Igneous/ }).textContent).toContain('Waived'))
    await waitFor(() => expect(statsReads).toHaveLength(1))
    await waitFor(() => expect(within(dialog).getByText('Courses Completed').nextElementSibling!.textContent).toBe('2'))
  })
})
