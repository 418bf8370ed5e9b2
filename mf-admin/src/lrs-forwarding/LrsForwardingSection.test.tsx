// @vitest-environment happy-dom
import { LRS_FORWARDING_MESSAGES, type LrsForwarding } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { lrsForwardingKeys } from './data/apiHooks.ts'
import { bodyOf, checkForm } from './lrs-form.ts'
import { LrsForwardingSection } from './LrsForwardingSection.tsx'

const settings = (over: Partial<LrsForwarding> = {}): LrsForwarding => ({
  endpoint: 'https://lrs.acme.test/xapi/',
  username: 'portal',
  has_password: true,
  enabled: true,
  last_sent_at: '2026-11-28T10:00:00.000Z',
  last_error: 'the LRS answered 400: bad statement',
  last_error_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T08:00:00.000Z',
  waiting: 0,
  oldest_waiting_since: null,
  ...over,
})

const render = (node: ReactNode, data?: LrsForwarding) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  if (data) client.setQueryData(lrsForwardingKeys.settings, data)
  return renderDom(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}

/** The network's edge: answers each call from `answer` and remembers the requests. */
function stubFetch(answer: (method: string, path: string, body: unknown) => { status: number; body: unknown }) {
  const calls: { method: string; path: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ method: init.method ?? 'GET', path: url, body })
      const a = answer(init.method ?? 'GET', url, body)
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } })
    }),
  )
  return calls
}
afterEach(() => vi.unstubAllGlobals())

describe('the Learning Record Store section', () => {
  it('labels every field, keeps the password write-only, and shows the switch, the last statement sent, the last error and what waits', () => {
    render(<LrsForwardingSection />, settings({ waiting: 1234, oldest_waiting_since: '2026-11-27T06:00:00.000Z' }))
    const form = screen.getByRole('form', { name: 'Learning record store' })
    expect(screen.getByRole('heading', { name: 'Learning Record Store' })).toBeTruthy()
    expect((within(form).getByLabelText('Endpoint') as HTMLInputElement).value).toBe('https://lrs.acme.test/xapi/')
    expect((within(form).getByLabelText('Username') as HTMLInputElement).value).toBe('portal')
    const password = within(form).getByLabelText('Password') as HTMLInputElement
    expect([password.type, password.value]).toEqual(['password', ''])
    expect(within(form).getByRole('textbox', { name: 'Endpoint' })).toBeTruthy()
    expect(within(form).getByLabelText('Password', { selector: 'input' }).getAttribute('aria-describedby')).toBeTruthy()
    expect(within(form).getByText('A password is stored. Leave blank to keep it.')).toBeTruthy()
    expect(within(form).getByRole('switch', { name: 'Send statements', checked: true })).toBeTruthy()
    expect(within(form).getByText('Last statement sent')).toBeTruthy()
    expect(within(form).getByText(/the LRS answered 400: bad statement/)).toBeTruthy()
    expect(within(form).getByText('Statements waiting')).toBeTruthy()
    expect(within(form).getByText(/^1,234 \(the oldest since .+\)$/)).toBeTruthy()
    expect(within(form).getByRole('button', { name: 'Save' })).toBeTruthy()
    expect(within(form).getByRole('button', { name: 'Test connection' })).toBeTruthy()
  })

  it('says never and none for a new configuration, and offers no test before an endpoint is saved', () => {
    render(<LrsForwardingSection />, settings({ endpoint: '', username: '', has_password: false, enabled: false, last_sent_at: null, last_error: null, last_error_at: null }))
    const form = screen.getByRole('form', { name: 'Learning record store' })
    expect(within(form).getByText('Never')).toBeTruthy()
    // No last error, nothing waiting.
    expect(within(form).getAllByText('None')).toHaveLength(2)
    expect(within(form).getByText('No password is stored.')).toBeTruthy()
    expect((within(form).getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('refused, marks the endpoint with its message, describes it and moves focus there', async () => {
    const calls = stubFetch(() => ({ status: 500, body: {} }))
    render(<LrsForwardingSection />, settings())
    const form = screen.getByRole('form', { name: 'Learning record store' })
    const endpoint = within(form).getByLabelText('Endpoint')
    await userEvent.clear(endpoint)
    await userEvent.type(endpoint, 'ftp://lrs.acme.test')
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    const marked = within(form).getByRole('textbox', {
      name: 'Endpoint',
      description: new RegExp(`^${LRS_FORWARDING_MESSAGES.endpointInvalid.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
    })
    expect(marked.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(marked))
    // Sending on with no endpoint: its own message.
    await userEvent.clear(endpoint)
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    expect(within(form).getByRole('textbox', { name: 'Endpoint', description: new RegExp(`^${LRS_FORWARDING_MESSAGES.endpointRequired}`) })).toBeTruthy()
    expect(calls).toEqual([])
  })

  it('saves without the password when left blank, then tests the connection and shows the outcome', async () => {
    const calls = stubFetch((method, path) => {
      if (method === 'PUT') return { status: 200, body: settings({ enabled: false, last_error: null, last_error_at: null }) }
      if (path.endsWith('/test')) return { status: 200, body: { ok: false, status: 401, message: 'The LRS refused the username or password (401)', versions: [] } }
      return { status: 404, body: {} }
    })
    render(<LrsForwardingSection />, settings())
    const form = screen.getByRole('form', { name: 'Learning record store' })
    await userEvent.click(within(form).getByRole('switch', { name: 'Send statements' }))
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(within(form).getByRole('status').textContent).toContain('Learning record store settings saved.'))
    expect(calls[0]).toEqual({ method: 'PUT', path: '/api/admin/lrs-forwarding', body: { endpoint: 'https://lrs.acme.test/xapi/', username: 'portal', enabled: false } })
    expect(within(form).getByRole('switch', { name: 'Send statements', checked: false })).toBeTruthy()
    await userEvent.click(within(form).getByRole('button', { name: 'Test connection' }))
    await waitFor(() => expect(within(form).getByRole('status').textContent).toContain('Connection failed: The LRS refused the username or password (401)'))
    expect(calls[1]).toMatchObject({ method: 'POST', path: '/api/admin/lrs-forwarding/test' })
  })
})

describe('the form’s rules', () => {
  it('sends a typed password, leaves a blank one out, and checks with the shared schema', () => {
    expect(bodyOf({ endpoint: ' https://lrs.test/xapi ', username: ' u ', password: 'p', enabled: true })).toEqual({
      endpoint: 'https://lrs.test/xapi',
      username: 'u',
      password: 'p',
      enabled: true,
    })
    expect(checkForm({ endpoint: '', username: '', password: '', enabled: false })).toEqual({ ok: true, body: { endpoint: '', username: '', enabled: false } })
    expect(checkForm({ endpoint: 'lrs.test', username: 'a:b', password: '', enabled: true })).toEqual({
      ok: false,
      errors: { endpoint: LRS_FORWARDING_MESSAGES.endpointInvalid, username: LRS_FORWARDING_MESSAGES.usernameColon },
    })
  })
})
