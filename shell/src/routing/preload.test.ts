import { describe, expect, it } from 'vitest'
import { pageToPreload, withFirstScreenParts } from './preload.ts'

describe('what the shell fetches before the session check answers', () => {
  it('fetches the dashboard at the address', () => {
    expect(pageToPreload('/user-dashboard', { is_admin: false })).toBe('mf_learner/UserDashboard')
    expect(pageToPreload('/admin-dashboard', { is_admin: true })).toBe('mf_admin/AdminDashboard')
  })

  it('fetches the dashboard / sends the stored user to', () => {
    expect(pageToPreload('/', { is_admin: true })).toBe('mf_admin/AdminDashboard')
    expect(pageToPreload('/', { is_admin: false })).toBe('mf_learner/UserDashboard')
    expect(pageToPreload('/', null)).toBeNull()
  })

  it('leaves other pages to their routes', () => {
    expect(pageToPreload('/exam/3', { is_admin: false })).toBeNull()
    expect(pageToPreload('/login', null)).toBeNull()
  })
})

describe('what a dashboard brings from other remotes', () => {
  it('fetches the learner dashboard with its certification cards, the admin dashboard alone', () => {
    expect(withFirstScreenParts('mf_learner/UserDashboard')).toEqual(['mf_learner/UserDashboard', 'mf_certifications/DashboardCards'])
    expect(withFirstScreenParts('mf_admin/AdminDashboard')).toEqual(['mf_admin/AdminDashboard'])
  })
})
