import type { User, UserStats } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
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
  const client = new QueryClient()
  if (data) client.setQueryData(userKeys.stats(user.id), data)
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <UserStatsDialog user={user} onClose={() => undefined} />
    </QueryClientProvider>,
  )
}

describe('User statistics dialog', () => {
  it('shows every figure of §3 and both histories with their badges (§4, §9)', () => {
    const html = render(stats)
    expect(html).toContain('User Statistics: Grace Hopper')
    for (const [label, value] of [
      ['Exams Taken', '2'],
      ['Average Score', '72.5%'],
      ['Highest Score', '90%'],
      ['Lowest Score', '55%'],
      ['Courses Started', '3'],
      ['Courses Completed', '1'],
      ['Average Course Progress', '53.3%'],
    ])
      expect(html).toContain(`<dt>${label}</dt><dd>${value}</dd>`)
    expect(html).toContain('<span class="pk-tone pk-tone--green">90%</span> Passed')
    expect(html).toContain('<span class="pk-tone pk-tone--red">55%</span> Failed')
    expect(html).toContain('<span class="pk-tone pk-tone--green">Completed</span>')
    expect(html).toContain('<span class="pk-tone pk-tone--blue">60% Complete</span>')
    expect(html).toContain('<span class="pk-tone pk-tone--grey">Not Started</span>')
    for (const col of ['Exam', 'Score', 'Completed', 'Course', 'Progress', 'Last Accessed']) expect(html).toContain(`<th scope="col">${col}</th>`)
  })

  it('says so when there is no history yet', () => {
    const html = render({ ...stats, examHistory: [], courseHistory: [] })
    expect(html).toContain('No exams taken yet')
    expect(html).toContain('No courses yet')
  })
})
