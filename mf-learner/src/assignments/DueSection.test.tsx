// @vitest-environment happy-dom
import { ASSIGNMENT_MESSAGES, type MyAssignments, type User } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, assignment, json, TODAY } from '../test-support/index.ts'
import UserDashboard from '../UserDashboard.tsx'
import { DueSection } from './DueSection.tsx'

const MINE = 'GET /api/assignments/mine'
const mine = (assignments: MyAssignments['assignments']): MyAssignments => ({ today: TODAY, assignments })

/** What the learner is asked for: an overdue exam and course, one due soon, one open, and what asks nothing (not due yet, completed). */
const assignments = [
  assignment({ rule_id: 1, item_title: 'Ladder Safety', item_id: 3, state: 'open', due_on: '2026-12-20', days_left: 25 }),
  assignment({ rule_id: 2, item_title: 'Hot Work Permit', item_id: 4, state: 'due_soon', due_on: '2026-11-30', days_left: 5 }),
  assignment({ rule_id: 3, item_title: 'Lockout/Tagout Exam', item_kind: 'exam', item_id: 9, state: 'overdue', due_on: '2026-11-22', days_left: -3 }),
  assignment({ rule_id: 4, item_title: 'First Aid Refresher', item_id: 5, state: 'completed_on_time', completed_on: '2026-11-02', due_on: '2026-11-20', days_left: -5 }),
  assignment({ rule_id: 5, item_title: 'Arc Flash', item_id: 6, state: 'not_due_yet', opens_on: '2027-01-01', due_on: '2027-02-01', days_left: 68 }),
  assignment({ rule_id: 6, item_title: 'Confined Space', item_id: 7, state: 'overdue', due_on: '2026-11-01', days_left: -24 }),
]

const user: User = {
  id: '7d0c8e3e-1f6e-4c39-9d0a-2a5f4c1b9e10',
  name: 'Pat Portland',
  email: 'tech.portland@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Portland',
  department: 'Service',
  user_group: null,
  employee_id: 'E-1001',
  hire_date: '2021-03-15',
  email_verified: true,
  created_at: '2021-03-15T00:00:00.000Z',
}

/** The section alone, under a client that never retries (a failure shows at once). */
const renderSection = (navigate = vi.fn(), openCourse = vi.fn()) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <DueSection actions={{ navigate, openCourse }} />
    </QueryClientProvider>,
  )
  return { navigate, openCourse }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the learner dashboard’s due items', () => {
  it('leads the dashboard: overdue first, then due soon, then open, each with its title, state in words, due date and how far it is', async () => {
    const edge = answerApi({ [MINE]: () => json(mine(assignments)) })
    const navigate = vi.fn()
    render(<UserDashboard user={user} onUserUpdated={() => undefined} navigate={navigate} params={{}} locationState={null} />)
    // The first section of the page, right under the welcome line.
    const section = await screen.findByRole('region', { name: 'Due and overdue' })
    expect(screen.getAllByRole('heading', { level: 2 })[0]!.textContent).toBe('Due and overdue')
    const items = await within(section).findAllByRole('listitem')
    expect(items.map((i) => i.textContent)).toEqual([
      'Confined SpaceCourseOverdueDue Nov 1, 2026 · 24 days overdue',
      'Lockout/Tagout ExamExamOverdueDue Nov 22, 2026 · 3 days overdue',
      'Hot Work PermitCourseDue soonDue Nov 30, 2026 · due in 5 days',
      'Ladder SafetyCourseOpenDue Dec 20, 2026 · due in 25 days',
    ])
    // Nothing that asks nothing of the learner.
    expect(within(section).queryByText('First Aid Refresher')).toBeNull()
    expect(within(section).queryByText('Arc Flash')).toBeNull()
    // The badges have text.
    expect(within(items[0]!).getByText('Overdue').className).toContain('pk-badge--danger')
    // An exam's title is a link to its page, followed by the shell's router.
    const exam = within(section).getByRole('link', { name: 'Lockout/Tagout Exam' })
    expect(exam.getAttribute('href')).toBe('/exam/9')
    await userEvent.click(exam)
    expect(navigate).toHaveBeenCalledWith('/exam/9')
    expect(edge.calls.filter((c) => c === MINE)).toHaveLength(1)
    // A course's title opens it in place, as View Course does.
    await userEvent.click(within(section).getByRole('button', { name: 'Confined Space' }))
    expect(screen.queryByRole('region', { name: 'Due and overdue' })).toBeNull()
    await waitFor(() => expect(edge.calls).toContain('GET /api/modules/course/7/progress'))
  })

  it('says nothing is due when nothing asks anything of the learner', async () => {
    answerApi({ [MINE]: () => json(mine(assignments.filter((a) => a.state === 'completed_on_time' || a.state === 'not_due_yet'))) })
    renderSection()
    const section = screen.getByRole('region', { name: 'Due and overdue' })
    expect(await within(section).findByText(ASSIGNMENT_MESSAGES.nothingDue)).toBeTruthy()
    expect(within(section).queryByRole('list')).toBeNull()
  })

  it('says the assignments failed to load, and Try Again fetches them again', async () => {
    let fail = true
    const edge = answerApi({ [MINE]: () => (fail ? new Response(null, { status: 503 }) : json(mine([assignments[2]!]))) })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    renderSection()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain(ASSIGNMENT_MESSAGES.loadFailed)
    fail = false
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByRole('link', { name: 'Lockout/Tagout Exam' })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(edge.calls.filter((c) => c === MINE)).toHaveLength(2)
  })
})
