import { describe, expect, it } from 'vitest'
import { decideAccess, decideExamResults, decideRoot } from './guards.ts'

describe('route guards', () => {
  it('always renders public routes', () => {
    expect(decideAccess('public', { status: 'anonymous' })).toEqual({ kind: 'render' })
    expect(decideAccess('public', { status: 'loading' })).toEqual({ kind: 'render' })
  })

  it('shows a spinner while the authentication state resolves', () => {
    expect(decideAccess('signed-in', { status: 'loading' })).toEqual({ kind: 'spinner' })
    expect(decideRoot({ status: 'loading' })).toEqual({ kind: 'spinner' })
  })

  it('sends signed-out visitors of protected routes to /login', () => {
    expect(decideAccess('signed-in', { status: 'anonymous' })).toEqual({ kind: 'redirect', to: '/login' })
    expect(decideAccess('admin', { status: 'anonymous' })).toEqual({ kind: 'redirect', to: '/login' })
  })

  it('sends a non-admin on an admin route to /user-dashboard', () => {
    expect(decideAccess('admin', { status: 'authenticated', isAdmin: false })).toEqual({
      kind: 'redirect',
      to: '/user-dashboard',
    })
    expect(decideAccess('admin', { status: 'authenticated', isAdmin: true })).toEqual({ kind: 'render' })
  })

  it('lets managers and admins onto the team pages and sends technicians to /user-dashboard', () => {
    expect(decideAccess('manager', { status: 'authenticated', isAdmin: false, isManager: false })).toEqual({ kind: 'redirect', to: '/user-dashboard' })
    expect(decideAccess('manager', { status: 'authenticated', isAdmin: false, isManager: true })).toEqual({ kind: 'render' })
    expect(decideAccess('manager', { status: 'authenticated', isAdmin: true, isManager: false })).toEqual({ kind: 'render' })
  })

  it('redirects / by role', () => {
    expect(decideRoot({ status: 'anonymous' })).toEqual({ kind: 'redirect', to: '/login' })
    expect(decideRoot({ status: 'authenticated', isAdmin: true })).toEqual({ kind: 'redirect', to: '/admin-dashboard' })
    expect(decideRoot({ status: 'authenticated', isAdmin: false })).toEqual({ kind: 'redirect', to: '/user-dashboard' })
  })

  it('sends /exam-results without exam state back to the role dashboard', () => {
    expect(decideExamResults(null, false)).toEqual({ kind: 'redirect', to: '/user-dashboard' })
    expect(decideExamResults(undefined, true)).toEqual({ kind: 'redirect', to: '/admin-dashboard' })
    expect(decideExamResults({ score: 80 }, false)).toEqual({ kind: 'render' })
  })
})
