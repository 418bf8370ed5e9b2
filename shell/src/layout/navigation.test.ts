import { describe, expect, it } from 'vitest'
import { isCurrent, sectionsFor } from './navigation.ts'

const labels = (user: { is_admin: boolean; is_manager: boolean }) => sectionsFor(user).map((s) => s.label)

describe('the header navigation', () => {
  it('offers a learner their own sections only', () => {
    expect(labels({ is_admin: false, is_manager: false })).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications'])
  })

  it('adds the team for managers, and the team and admin for admins', () => {
    expect(labels({ is_admin: false, is_manager: true })).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications', 'Team'])
    expect(labels({ is_admin: true, is_manager: false })).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications', 'Team', 'Admin'])
  })

  it('marks the page the user is on, a dashboard section only with its fragment', () => {
    const [dashboard, courses] = sectionsFor({ is_admin: false, is_manager: false })
    expect(isCurrent(dashboard!, '/user-dashboard', '')).toBe(true)
    expect(isCurrent(courses!, '/user-dashboard', '')).toBe(false)
    expect(isCurrent(courses!, '/user-dashboard', '#my-courses')).toBe(true)
    expect(isCurrent(dashboard!, '/user-dashboard', '#my-courses')).toBe(false)
  })
})
