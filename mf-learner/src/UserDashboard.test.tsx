// @vitest-environment happy-dom
import { User, UserStats } from '@portal/contracts'
import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, json } from './test-support/index.ts'
import UserDashboard from './UserDashboard.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const ID = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'
const STATS = `GET /api/users/${ID}/stats`

const user = User.parse({
  id: ID,
  name: 'Sue Seattle',
  email: 'tech.seattle@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Seattle',
  department: 'Testing',
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-11-01T00:00:00Z',
})

const stats = UserStats.parse({
  examsTaken: 3,
  averageScore: 80,
  highestScore: 90,
  lowestScore: 70,
  coursesStarted: 2,
  coursesCompleted: 1,
  averageCourseProgress: 75,
  examHistory: [],
  courseHistory: [],
})

const renderDashboard = () =>
  render(<UserDashboard user={user} onUserUpdated={() => undefined} navigate={() => undefined} params={{}} locationState={undefined} announcePage={() => undefined} />)

describe('UserDashboard', () => {
  it('lays the statistics and the certification cards out on one grid, each card’s figures in even rows', async () => {
    answerApi({ [STATS]: () => json(stats) })
    renderDashboard()
    const examStats = screen.getByRole('region', { name: 'Exam Statistics' })
    const courseStats = screen.getByRole('region', { name: 'Course Statistics' })
    const grid = examStats.parentElement!
    expect(grid.classList.contains('pk-dashboard-cards')).toBe(true)
    expect(courseStats.parentElement).toBe(grid)
    // The certification slice's cards (still loading here) are placed in the same grid.
    expect(within(grid).getByText('Loading certifications...')).toBeTruthy()
    // Four figures go 4 or 2 + 2 to a row, three go 3 to a row: never 3 + 1.
    await within(examStats).findByText('Exams Taken')
    expect(examStats.querySelector('dl')!.getAttribute('data-tiles')).toBe('4')
    await within(courseStats).findByText('Courses Started')
    expect(courseStats.querySelector('dl')!.getAttribute('data-tiles')).toBe('3')
  })

  it('shows a refused load at once: asked once, not again after a wait', async () => {
    const edge = answerApi({ [STATS]: () => json({ message: 'Service unavailable', code: 'unavailable' }, 503) })
    renderDashboard()
    await within(screen.getByRole('region', { name: 'Exam Statistics' })).findByText('Not loaded.')
    await new Promise((r) => setTimeout(r, 500))
    expect(edge.calls.filter((c) => c === STATS)).toHaveLength(1)
  })
})
