// @vitest-environment happy-dom
import { COURSE_MESSAGES, type User } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AssignDialog, assignError } from './AssignDialog.tsx'

describe('assign dialog error', () => {
  it('shows nothing before the first try', () => {
    expect(assignError(false, 0, null)).toBeNull()
  })

  it('asks for a user after a try with nobody ticked', () => {
    expect(assignError(true, 0, null)).toBe(COURSE_MESSAGES.selectAtLeastOneUser)
  })

  it('goes as soon as a user is ticked (or Select All ticks several)', () => {
    expect(assignError(true, 1, null)).toBeNull()
    expect(assignError(true, 4, null)).toBeNull()
  })

  it("shows a failed call's message while users are ticked", () => {
    expect(assignError(true, 2, 'Failed to assign course')).toBe('Failed to assign course')
  })
})

const person = (id: string, name: string, email: string, more: Partial<User> = {}): User => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  name,
  email,
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Seattle',
  department: 'Testing',
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
  ...more,
})
const sueOne = person('1', 'Sue Seattle', 'sue.one@example.com')
const sueTwo = person('2', 'Sue Seattle', 'sue.two@example.com', { employee_id: 'E0002' })
const ann = person('3', 'Ann Lee', 'ann@example.com', { branch: 'Anchorage' })
const admin = person('4', 'Root Admin', 'root@example.com', { is_admin: true })

/** Answers GET /api/users and GET /api/admin/user-groups. */
const answerUsers = () =>
  vi.stubGlobal('fetch', async (input: string | URL | Request) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test')
    const json = url.pathname === '/api/users' ? [sueOne, sueTwo, ann, admin] : url.pathname === '/api/admin/user-groups' ? [] : null
    return new Response(JSON.stringify(json ?? { message: 'No answer' }), { status: json ? 200 : 599, headers: { 'Content-Type': 'application/json' } })
  })

const show = (assign: (ids: string[]) => Promise<unknown>, initialSelected: string[] = []) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <AssignDialog
        title="Assign Exam: Safety"
        initialSelected={initialSelected}
        assignedToAll={false}
        what="exam"
        assign={assign}
        errorFallback="Failed to assign exam"
        onClose={() => undefined}
        onAssigned={() => undefined}
      />
    </QueryClientProvider>,
  )

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('assign dialog', () => {
  it('tells two learners of the same name apart by e-mail (and employee id), and the search narrows to one', async () => {
    answerUsers()
    const assign = vi.fn(async () => ({}))
    show(assign, [ann.id])
    const dialog = screen.getByRole('dialog', { name: 'Assign Exam: Safety' })
    const list = await within(dialog).findByRole('group', { name: 'Users' })
    expect(
      within(list)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')!.textContent),
    ).toEqual([
      'Sue Seattle (sue.one@example.com)Seattle · Testing',
      'Sue Seattle (sue.two@example.com · ID E0002)Seattle · Testing',
      'Ann Lee (ann@example.com)Anchorage · TestingAssigned',
    ])
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search users' }), { target: { value: 'sue.two' } })
    const only = within(list).getByRole('checkbox', { name: /^Sue Seattle \(sue\.two@example\.com/ })
    expect(within(list).getAllByRole('checkbox')).toEqual([only])
    fireEvent.click(only)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith([ann.id, sueTwo.id]))
  })

  it('refused with nobody ticked, marks the search field, describes it and the list by the message, and moves focus there', async () => {
    answerUsers()
    const assign = vi.fn(async () => ({}))
    show(assign)
    const dialog = screen.getByRole('dialog', { name: 'Assign Exam: Safety' })
    await within(dialog).findByRole('group', { name: 'Users' })
    const button = within(dialog).getByRole('button', { name: 'Assign' })
    button.focus()
    fireEvent.click(button)
    const search = within(dialog).getByRole('searchbox', { name: 'Search users', description: COURSE_MESSAGES.selectAtLeastOneUser })
    expect(search.getAttribute('aria-invalid')).toBe('true')
    expect(within(dialog).getByRole('group', { name: 'Users', description: COURSE_MESSAGES.selectAtLeastOneUser })).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(search))
    expect(assign).not.toHaveBeenCalled()
    // Ticking someone takes the mark away.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^Ann Lee/ }))
    expect(search.hasAttribute('aria-invalid')).toBe(false)
  })
})
