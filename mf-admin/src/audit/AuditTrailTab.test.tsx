// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAdminQueryClient } from '../query-client.ts'
import { AuditTrailTab } from './AuditTrailTab.tsx'

afterEach(() => vi.unstubAllGlobals())

const entry = {
  id: 7,
  service: 'identity',
  at: '2026-11-20T10:00:00.000Z',
  actor_id: 'a1',
  actor_name: 'Root Admin',
  action: 'user.group_changed',
  target: 'Sue Seattle',
  details: { from: 'Field', to: 'Office' },
}

describe('Audit Trail tab', () => {
  it('names each cell’s column on the cell itself, for the phone layout that stacks an entry into labelled lines', async () => {
    // Each service's trail at the edge: the identity service kept one entry, the others none.
    vi.stubGlobal('fetch', async (input: string | URL | Request) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test').pathname
      const body = path === '/api/admin/audit/identity' ? [entry] : path.startsWith('/api/admin/audit/') ? [] : null
      return new Response(JSON.stringify(body ?? { message: 'Not found', code: 'not_found' }), { status: body ? 200 : 404, headers: { 'Content-Type': 'application/json' } })
    })
    render(
      <QueryClientProvider client={createAdminQueryClient()}>
        <AuditTrailTab />
      </QueryClientProvider>,
    )
    const table = await screen.findByRole('table')
    // A named, focusable region around it (a keyboard can scroll it where it is wider than the screen).
    const region = screen.getByRole('region', { name: 'Audit trail' })
    expect([region.tabIndex, region.className]).toEqual([0, 'pk-table-wrap pk-audit'])
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell')
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(headers)
    expect(cells.map((c) => c.textContent)).toContain('Sue Seattle')
  })
})
