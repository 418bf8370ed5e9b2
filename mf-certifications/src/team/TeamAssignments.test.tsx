// @vitest-environment happy-dom
import { TeamResponse, type User } from '@portal/contracts'
import { render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerApi, bodyRows, json, memberDetail, personAssignment, renderWithClient, teamRow } from '../test/index.ts'
import { MemberAssignments } from './MemberAssignments.tsx'
import TeamDashboard from './TeamDashboardPage.tsx'
import { TeamMemberBody } from './TeamMemberPage.tsx'

const manager: User = {
  id: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a',
  name: 'Morgan Manager',
  email: 'manager@example.com',
  is_admin: false,
  is_manager: true,
  manager_scope: { branches: ['Portland'], departments: [] },
  branch: 'Portland',
  department: 'Service',
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
}

const team = TeamResponse.parse({
  teamMembers: [teamRow({ overdue_assignments: 3 })],
  summary: { total_team: 1, compliant: 1, avg_progress: 100, expired: 0, expiring_soon: 0, overdue_members: 1, overdue_assignments: 3 },
  total: 1,
})

/** The team list requests made, as their queries. */
const teamQueries = (calls: string[]) => calls.filter((c) => c.startsWith('GET /api/manager/team?')).map((c) => c.slice('GET /api/manager/team'.length))

const renderDashboard = () => render(<TeamDashboard user={manager} onUserUpdated={() => undefined} navigate={() => undefined} params={{}} locationState={null} />)

beforeEach(() => {
  window.history.replaceState(null, '', '/manager/dashboard')
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('team dashboard: overdue assignments', () => {
  it('filters to members with an overdue assignment, keeps the filter in the address, and sorts by the Overdue column', async () => {
    const edge = answerApi({ 'GET /api/manager/team': () => json(team) })
    renderDashboard()
    const overdueOnly = screen.getByRole('checkbox', { name: 'Overdue only', checked: false })
    await screen.findByRole('table')
    expect(teamQueries(edge.calls)).toEqual(['?sort=name&order=asc&limit=50&offset=0'])

    await userEvent.click(overdueOnly)
    await waitFor(() => expect(teamQueries(edge.calls).at(-1)).toBe('?overdue=true&sort=name&order=asc&limit=50&offset=0'))
    expect(window.location.pathname + window.location.search).toBe('/manager/dashboard?overdue=true')
    // The control keeps focus: writing the address is no navigation.
    expect(document.activeElement).toBe(overdueOnly)
    expect(screen.getByText('1 member matches the filters')).toBeTruthy()

    const sortByOverdue = within(screen.getByRole('columnheader', { name: /^Overdue/ })).getByRole('button')
    await userEvent.click(sortByOverdue)
    await waitFor(() => expect(teamQueries(edge.calls).at(-1)).toBe('?overdue=true&sort=overdue&order=asc&limit=50&offset=0'))
    await userEvent.click(within(screen.getByRole('columnheader', { name: /^Overdue/ })).getByRole('button'))
    await waitFor(() => expect(teamQueries(edge.calls).at(-1)).toBe('?overdue=true&sort=overdue&order=desc&limit=50&offset=0'))
    expect(screen.getByRole('columnheader', { name: /^Overdue/ }).getAttribute('aria-sort')).toBe('descending')
    expect(window.location.search).toBe('?overdue=true&sort=overdue&order=desc')
    expect(within(screen.getByRole('table')).getByText('3 assignments')).toBeTruthy()
  })

  it('starts from the filters and order in the address (a reload, Back), and clears them', async () => {
    window.history.replaceState(null, '', '/manager/dashboard?overdue=true&branch=Portland&sort=overdue&order=desc')
    const edge = answerApi({ 'GET /api/manager/team': () => json(team) })
    renderDashboard()
    expect(screen.getByRole('checkbox', { name: 'Overdue only', checked: true })).toBeTruthy()
    expect((screen.getByRole('combobox', { name: 'Branch' }) as HTMLSelectElement).value).toBe('Portland')
    await screen.findByRole('table')
    expect(teamQueries(edge.calls)).toEqual(['?branch=Portland&overdue=true&sort=overdue&order=desc&limit=50&offset=0'])
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }))
    await waitFor(() => expect(teamQueries(edge.calls).at(-1)).toBe('?sort=overdue&order=desc&limit=50&offset=0'))
    expect(screen.getByRole('checkbox', { name: 'Overdue only', checked: false })).toBeTruthy()
    expect(window.location.search).toBe('?sort=overdue&order=desc')
  })

  it('exports with the Overdue filter and the order on screen', async () => {
    window.history.replaceState(null, '', '/manager/dashboard?overdue=true&sort=overdue&order=desc')
    const edge = answerApi({
      'GET /api/manager/team': () => json(team),
      'GET /api/reports/certifications/export': () => new Response(new Blob(['xlsx']), { status: 200 }),
    })
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export')
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined)
    renderDashboard()
    await screen.findByRole('table')
    await userEvent.click(screen.getByRole('button', { name: 'Export' }))
    await screen.findByText(/^Exported team-certifications-/)
    expect(edge.calls.filter((c) => c.includes('/export'))).toEqual(['GET /api/reports/certifications/export?format=excel&overdue=true&sort=overdue&order=desc'])
  })
})

describe('team member page: assignments', () => {
  it('lists the member’s assignments in a table with column headers, states in words and due dates', () => {
    renderWithClient(
      <MemberAssignments
        name="Pat Portland"
        assignments={[
          personAssignment({ rule_id: 1, item_kind: 'exam', item_id: 9, item_title: 'Lockout/Tagout Exam', state: 'overdue', due_on: '2026-11-22', days_left: -3 }),
          personAssignment({ rule_id: 2, item_title: 'Hot Work Permit', state: 'due_soon', due_on: '2026-11-25', days_left: 0 }),
          personAssignment({
            rule_id: 3,
            item_title: 'First Aid Refresher',
            state: 'completed_late',
            recurring: true,
            due_on: '2026-11-20',
            completed_on: '2026-11-24',
            next_due_on: '2027-11-24',
            days_left: -5,
          }),
          personAssignment({ rule_id: 4, item_title: 'Arc Flash', state: 'exempt', exempt_reason: 'On leave until March' }),
        ]}
      />,
    )
    const table = screen.getByRole('table', { name: 'Assignments' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Assignment', 'Type', 'State', 'Due date', 'Completed'])
    expect(bodyRows(table)).toEqual([
      ['Lockout/Tagout Exam', 'Exam', 'Overdue', 'Nov 22, 2026 · 3 days overdue', '—'],
      ['Hot Work Permit', 'Course', 'Due soon', 'Nov 25, 2026 · due today', '—'],
      ['First Aid Refresher', 'Course', 'Completed late', 'Nov 20, 2026 · next due Nov 24, 2027', 'Nov 24, 2026'],
      ['Arc Flash', 'Course', 'Exempt On leave until March', 'Not due', '—'],
    ])
    expect(within(table).getByText('Overdue').className).toContain('pk-badge--danger')
  })

  it('says so when the member has no assignment, after the profile and before the revenue', () => {
    renderWithClient(<TeamMemberBody detail={memberDetail({ assignments: [] })} today="2026-11-25" />)
    const section = screen.getByRole('region', { name: 'Assignments' })
    expect(within(section).getByText('Pat Portland has no assignments.')).toBeTruthy()
    expect(within(section).queryByRole('table')).toBeNull()
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings.indexOf('Assignments')).toBeGreaterThan(headings.indexOf('Pat Portland'))
    expect(headings.indexOf('Assignments')).toBeLessThan(headings.indexOf('Revenue Overview'))
  })
})
