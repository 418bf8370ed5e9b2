// @vitest-environment happy-dom
import { MESSAGES, User } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi } from '../test-support/index.ts'
import { CompleteProfileModal } from './CompleteProfileModal.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A new user: no branch or department yet. */
const user = User.parse({
  id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  name: 'Jordan Tech',
  email: 'jordan@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: null,
  department: null,
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-11-01T00:00:00Z',
})

/** The field is marked invalid and its description (aria-describedby) says `message`. */
const expectMarked = (field: HTMLElement, message: string) => {
  expect(field.getAttribute('aria-invalid')).toBe('true')
  const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)
  expect(described).toContain(message)
}

const renderModal = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CompleteProfileModal open user={user} onSaved={() => undefined} onDismiss={() => undefined} />
    </QueryClientProvider>,
  )

describe('Complete Your Profile', () => {
  it('marks both choices when saved empty, each with its message, and focuses Branch; nothing is sent', async () => {
    const edge = answerApi({})
    const person = userEvent.setup()
    renderModal()
    const dialog = screen.getByRole('dialog', { name: 'Complete Your Profile' })
    await person.click(within(dialog).getByRole('button', { name: 'Save' }))
    const branch = within(dialog).getByLabelText('Branch')
    expectMarked(branch, MESSAGES.branchRequired)
    expectMarked(within(dialog).getByLabelText('Department'), MESSAGES.departmentRequired)
    expect(document.activeElement).toBe(branch)
    expect(edge.calls).toEqual([])
  })

  it('focuses Department when only it is missing', async () => {
    answerApi({})
    const person = userEvent.setup()
    renderModal()
    const dialog = screen.getByRole('dialog', { name: 'Complete Your Profile' })
    await person.selectOptions(within(dialog).getByLabelText('Branch'), 'Anchorage')
    await person.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByLabelText('Branch').getAttribute('aria-invalid')).toBeNull()
    const department = within(dialog).getByLabelText('Department')
    expectMarked(department, MESSAGES.departmentRequired)
    expect(document.activeElement).toBe(department)
  })
})
