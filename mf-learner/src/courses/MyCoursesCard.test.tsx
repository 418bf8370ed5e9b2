// @vitest-environment happy-dom
import type { CourseModulesProgress, CourseWithProgress, LearnerModule } from '@portal/contracts'
import { ToastProvider } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderDom, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerApi, assignment, json, TODAY } from '../test-support/index.ts'
import { courseKeys } from './data/apiHooks.ts'
import CourseViewer from './CourseViewer.tsx'
import { MyCoursesCard } from './MyCoursesCard.tsx'

const mod = (id: number, over: Partial<LearnerModule> = {}): LearnerModule => ({
  id,
  course_id: 1,
  title: `Lesson ${id}`,
  order: id,
  file_path: 'lesson.zip',
  size: 10,
  is_scorm: true,
  content_type: 'application/zip',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: '1.2',
  scorm_edition: null,
  sco_count: 1,
  is_unlocked: true,
  started_at: null,
  completed_at: null,
  progress: 0,
  last_accessed: null,
  ...over,
})

const course = (id: number, over: Partial<CourseWithProgress> = {}): CourseWithProgress => ({
  id,
  title: `Course ${id}`,
  status: 'not-started',
  progress: 0,
  is_assigned_to_all: true,
  completed_at: null,
  modules: [mod(1), mod(2)],
  ...over,
})

const render = (client: QueryClient, node: ReactNode) =>
  renderDom(
    <QueryClientProvider client={client}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  )

/** A client that keeps what a test gives it (no refetch on mount) and never retries. */
const newClient = () => new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })

const withCourses = (courses: CourseWithProgress[]) => {
  const client = newClient()
  client.setQueryData(courseKeys.list(), courses)
  return client
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('My Courses card', () => {
  it('shows each course with its status badge, module count and View Course', () => {
    render(withCourses([course(1, { title: 'Ladder Safety' }), course(2, { status: 'completed', progress: 100, modules: [mod(3)] })]), <MyCoursesCard onView={() => undefined} />)
    const list = within(screen.getByRole('region', { name: 'My Courses' })).getByRole('list')
    const ladder = within(list).getByRole('listitem', { name: 'Ladder Safety' })
    expect(within(ladder).getByText('Not Started')).toBeTruthy()
    expect(within(ladder).getByText('2 modules')).toBeTruthy()
    expect(within(ladder).getByRole('button', { name: 'View Course', description: 'Ladder Safety' })).toBeTruthy()
    const second = within(list).getByRole('listitem', { name: 'Course 2' })
    expect(within(second).getByText('Completed')).toBeTruthy()
    expect(within(second).getByText('1 module')).toBeTruthy()
    expect(within(second).getByRole('button', { name: 'View Course', description: 'Course 2' })).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'View Course' })).toHaveLength(2)
  })

  it('shows a progress bar only when progress is above 0', () => {
    render(withCourses([course(1, { status: 'in-progress', progress: 42 }), course(2)]), <MyCoursesCard onView={() => undefined} />)
    const started = screen.getByRole('listitem', { name: 'Course 1' })
    expect(within(started).getByText('In Progress')).toBeTruthy()
    const bars = screen.getAllByRole('progressbar')
    expect(bars).toHaveLength(1)
    expect(within(started).getByRole('progressbar', { name: 'Course 1 progress' }).getAttribute('aria-valuenow')).toBe('42')
  })

  it('shows an assigned course’s due date and state (the most urgent of its rules), and when a recurring one is next due', async () => {
    answerApi({
      'GET /api/assignments/mine': () =>
        json({
          today: TODAY,
          assignments: [
            assignment({ rule_id: 1, item_id: 1, item_title: 'Ladder Safety', state: 'open', due_on: '2027-01-10', days_left: 46 }),
            assignment({ rule_id: 2, item_id: 1, item_title: 'Ladder Safety', state: 'overdue', due_on: '2026-11-22', days_left: -3 }),
            assignment({ rule_id: 3, item_id: 2, state: 'completed_on_time', recurring: true, completed_on: '2026-11-10', due_on: '2026-11-20', next_due_on: '2027-11-10' }),
            // An exam of the same id is not this course's.
            assignment({ rule_id: 4, item_kind: 'exam', item_id: 3, state: 'due_soon', due_on: '2026-11-27', days_left: 2 }),
          ],
        }),
    })
    render(withCourses([course(1, { title: 'Ladder Safety' }), course(2, { status: 'completed', progress: 100 }), course(3)]), <MyCoursesCard onView={() => undefined} />)
    const ladder = screen.getByRole('listitem', { name: 'Ladder Safety' })
    expect((await within(ladder).findByText('Overdue')).className).toContain('pk-badge')
    expect(within(ladder).getByText('Due Nov 22, 2026 · 3 days overdue')).toBeTruthy()
    expect(within(ladder).queryByText('Open')).toBeNull()
    const done = screen.getByRole('listitem', { name: 'Course 2' })
    expect(within(done).getByText('Completed on time')).toBeTruthy()
    expect(within(done).getByText('Next due Nov 10, 2027')).toBeTruthy()
    const unassigned = screen.getByRole('listitem', { name: 'Course 3' })
    expect(within(unassigned).queryByText(/due/i)).toBeNull()
  })

  it('says so when no course is assigned', () => {
    render(withCourses([]), <MyCoursesCard onView={() => undefined} />)
    expect(within(screen.getByRole('region', { name: 'My Courses' })).getByText('No courses assigned yet')).toBeTruthy()
  })

  it('shows a loading state before the courses arrive', () => {
    render(newClient(), <MyCoursesCard onView={() => undefined} />)
    expect(screen.getByRole('status').textContent).toContain('Loading courses...')
  })
})

describe('course viewer', () => {
  const modules = (courseId: number, list: LearnerModule[]): CourseModulesProgress['data'] => ({
    courseId,
    title: 'Ladder Safety',
    status: 'in-progress',
    progress: 50,
    completed_at: null,
    modules: list,
  })

  it('lists the modules with number, status, type, progress and completion date, and how many are completed', () => {
    const client = newClient()
    client.setQueryData(
      courseKeys.modules(7),
      modules(7, [
        mod(1, { title: 'Intro video', is_scorm: false, content_type: 'video/mp4', completed_at: '2026-11-20T10:00:00Z', progress: 100 }),
        mod(2, { title: 'Handbook', is_scorm: false, content_type: 'application/pdf', progress: 20 }),
        mod(3, { title: 'Quiz', is_unlocked: false }),
      ]),
    )
    // Asked for the completed first module, the viewer opens it, so the second stays merely available.
    render(client, <CourseViewer courseId={7} requestedModuleId={1} onClose={() => undefined} />)
    expect(screen.getByRole('heading', { level: 1, name: 'Ladder Safety' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Close Course' })).toBeTruthy()
    const nav = screen.getByRole('navigation', { name: 'Course modules' })
    expect(within(nav).getByText('1 of 3 modules completed')).toBeTruthy()
    // Each module button is named by what it shows (no aria-label to disagree with it), its percent as hidden text.
    const buttons = within(nav).getAllByRole('button')
    expect(buttons).toHaveLength(3)
    for (const b of buttons) expect(b.hasAttribute('aria-label')).toBe(false)
    // What each shows (the hidden percent included; the bar itself is hidden from the name).
    const shown = (b: HTMLElement) => b.textContent!.replace(/\s+/g, ' ').trim()
    expect(shown(buttons[0]!)).toMatch(/^1\. Intro video Video Completed, 100% Completed Nov 20, 2026$/)
    expect(shown(buttons[1]!)).toBe('2. Handbook PDF Available, 20%')
    expect(shown(buttons[2]!)).toBe('3. Quiz SCORM Locked, 0%')
    // The name a screen reader gives each is that text (the tree inserts a space between the status and its percent).
    for (const b of buttons) expect(within(nav).getByRole('button', { name: (name) => name.replace(' , ', ', ') === shown(b) })).toBe(b)
    expect(buttons.map((b) => b.getAttribute('aria-current'))).toEqual(['true', null, null])
    expect(buttons.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, false, true])
    // Course progress is the mean of the modules': (100 + 20 + 0) / 3.
    expect(within(nav).getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe('40')
  })

  it('shows no module until one is picked: with none to pick, says so', () => {
    const client = newClient()
    client.setQueryData(courseKeys.modules(7), modules(7, []))
    render(client, <CourseViewer courseId={7} onClose={() => undefined} />)
    expect(screen.getByText('No module selected')).toBeTruthy()
  })

  it('says the course ID is missing instead of loading nothing', () => {
    render(newClient(), <CourseViewer courseId={0} onClose={() => undefined} />)
    expect(screen.getByText('Error Loading Course')).toBeTruthy()
    expect(screen.getByText('Course ID not available')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy()
  })
})
