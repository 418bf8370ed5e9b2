// @vitest-environment happy-dom
import type { User, UserStats } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderDom, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
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

const render = (data?: UserStats) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  if (data) client.setQueryData(userKeys.stats(user.id), data)
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
