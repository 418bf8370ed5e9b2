// @vitest-environment happy-dom
import type { User } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmploymentDialog } from './EmploymentDialog.tsx'

/** The admin's Employment dialog (issue 24): employee id and hire date, answered at fetch. */
const dana: User = {
  id: '00000000-0000-4000-8000-00000000000d',
  name: 'Dana Due',
  email: 'dana@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Anchorage',
  department: 'Testing',
  user_group: null,
  employee_id: 'E0042',
  hire_date: '2024-02-05',
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
}

const show = (onClose = () => undefined) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <EmploymentDialog user={dana} onClose={onClose} />
    </QueryClientProvider>,
  )

afterEach(() => {
  vi.unstubAllGlobals()
})

/** Answers PUT /api/users/{id}/employment with `answer` and GET /api/users with Dana; records the PUT bodies. */
function answerEmployment(answer: (body: unknown) => { status: number; json: unknown }) {
  const puts: unknown[] = []
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test')
    const method = (init.method ?? 'GET').toUpperCase()
    const reply = (status: number, json: unknown) => new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
    if (method === 'PUT' && url.pathname === `/api/users/${dana.id}/employment`) {
      const body = JSON.parse(String(init.body)) as unknown
      puts.push(body)
      const { status, json } = answer(body)
      return reply(status, json)
    }
    if (method === 'GET' && url.pathname === '/api/users') return reply(200, [dana])
    return reply(599, { message: `No answer for ${method} ${url.pathname}` })
  })
  return puts
}

describe('Employment dialog', () => {
  it('shows the user’s employee id and hire date in labelled fields and saves them, an emptied field as null', async () => {
    const puts = answerEmployment((body) => ({ status: 200, json: { user: { ...dana, ...(body as object) } } }))
    const onClose = vi.fn()
    show(onClose)
    expect(screen.getByRole('dialog', { name: 'Employment: Dana Due' })).toBeTruthy()
    const id = screen.getByRole('textbox', { name: 'Employee ID' }) as HTMLInputElement
    const hire = screen.getByLabelText('Hire date') as HTMLInputElement
    expect([id.value, hire.value]).toEqual(['E0042', '2024-02-05'])
    fireEvent.change(hire, { target: { value: '2026-08-30' } })
    fireEvent.change(id, { target: { value: '  ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(puts).toEqual([{ employee_id: null, hire_date: '2026-08-30' }])
  })

  it('shows the server’s refusal and stays open', async () => {
    answerEmployment(() => ({ status: 403, json: { message: 'Admin access required', code: 'forbidden' } }))
    const onClose = vi.fn()
    show(onClose)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Admin access required')
    expect(onClose).not.toHaveBeenCalled()
  })

  it('refused before sending, marks the field in error, describes it by the message and moves focus to it', async () => {
    const puts = answerEmployment(() => ({ status: 200, json: { user: dana } }))
    show()
    const id = screen.getByRole('textbox', { name: 'Employee ID' })
    // Pasted past the field's limit (maxLength stops typing, not a script).
    fireEvent.change(id, { target: { value: 'E'.repeat(51) } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const marked = screen.getByRole('textbox', { name: 'Employee ID', description: 'Employee id may hold at most 50 characters' })
    expect(marked.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByLabelText('Hire date').hasAttribute('aria-invalid')).toBe(false)
    await waitFor(() => expect(document.activeElement).toBe(marked))
    expect(puts).toEqual([])
  })
})
