// @vitest-environment happy-dom
import type { User } from '@portal/contracts'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import AdminDashboard from './AdminDashboard.tsx'
import { ADMIN_TABS } from './tabs.ts'
import { answerFetch, on } from './assignments/edge.test-support.ts'

const admin: User = {
  id: '00000000-0000-4000-8000-000000000009',
  name: 'Root Admin',
  email: 'admin@acme.test',
  is_admin: true,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: null,
  department: null,
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Admin Dashboard', () => {
  it('reaches the Assignments tab from the keyboard like the others, and opens its panel', async () => {
    // The first tab's exams and the tabs passed on the way stay loading.
    answerFetch(on('GET', '/api/admin/assignment-rules', { json: [] }), () => 'hang')
    render(<AdminDashboard user={admin} onUserUpdated={() => undefined} navigate={() => undefined} params={{}} locationState={null} />)
    const tablist = screen.getByRole('tablist', { name: 'Admin sections' })
    let current = within(tablist).getByRole('tab', { name: 'Exams', selected: true })
    current.focus()
    // The arrows wrap from the first tab to the last, then walk back to Assignments, focus going along.
    for (let i = ADMIN_TABS.length - 1; i >= ADMIN_TABS.indexOf('Assignments'); i--) {
      await act(async () => {
        fireEvent.keyDown(current, { key: 'ArrowLeft' })
      })
      current = within(tablist).getByRole('tab', { name: ADMIN_TABS[i], selected: true })
      expect(document.activeElement).toBe(current)
    }
    const tab = within(tablist).getByRole('tab', { name: 'Assignments', selected: true })
    expect(document.activeElement).toBe(tab)
    expect(tab.tabIndex).toBe(0)
    const panel = screen.getByRole('tabpanel', { name: 'Assignments' })
    expect(await within(panel).findByRole('heading', { level: 2, name: 'Assignments' })).toBeTruthy()
    expect(await within(panel).findByText('No assignment rules yet')).toBeTruthy()
    expect(within(panel).getByRole('button', { name: 'New Assignment Rule' })).toBeTruthy()
  })

  const open = () => render(<AdminDashboard user={admin} onUserUpdated={() => undefined} navigate={() => undefined} params={{}} locationState={null} />)

  it('shows a refused load at once, without asking again', async () => {
    const edge = answerFetch(on('GET', '/api/admin/exams', { status: 403, json: { message: 'Admins only', code: 'forbidden' } }))
    open()
    const panel = screen.getByRole('tabpanel', { name: 'Exams' })
    // Well before the second or two a retry would have taken.
    expect(await within(panel).findByRole('alert', {}, { timeout: 250 })).toBeTruthy()
    expect(within(panel).queryByText(/Loading/)).toBeNull()
    expect(edge.of('GET', '/api/admin/exams')).toHaveLength(1)
  })

  it('asks once more, soon, when the network dropped the request, then shows the error', async () => {
    const edge = answerFetch(on('GET', '/api/admin/exams', 'network-error'))
    open()
    const panel = screen.getByRole('tabpanel', { name: 'Exams' })
    expect(await within(panel).findByRole('alert', {}, { timeout: 1000 })).toBeTruthy()
    expect(edge.of('GET', '/api/admin/exams')).toHaveLength(2)
  })
})
