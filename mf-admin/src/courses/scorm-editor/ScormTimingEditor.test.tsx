// @vitest-environment happy-dom
import { SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAdminQueryClient } from '../../query-client.ts'
import { ScormTimingEditor } from './ScormTimingEditor.tsx'

afterEach(() => vi.unstubAllGlobals())

describe('SCORM Timing Editor of a stored module', () => {
  it('says in plain words that a package without a Captivate project has nothing to edit, and ends with Close', async () => {
    // The service's answers for a SCORM package made with another tool.
    vi.stubGlobal('fetch', async (input: string | URL | Request) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test').pathname
      const [status, body] =
        path === '/api/scorm-editor/analyze'
          ? [422, { message: M.unreadable, code: 'project_unreadable' }]
          : path === '/api/scorm-editor/backups/4'
            ? [200, { backups: [] }]
            : [404, { message: 'Not found', code: 'not_found' }]
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    })
    render(
      <QueryClientProvider client={createAdminQueryClient()}>
        <ScormTimingEditor module={{ id: 4, title: 'Golf Basics' }} onClose={() => undefined} />
      </QueryClientProvider>,
    )
    const dialog = screen.getByRole('dialog', { name: 'SCORM Timing Editor: Golf Basics' })
    expect(await within(dialog).findByText(M.notCaptivateModule)).toBeTruthy()
    expect(within(dialog).queryByText(M.unreadable)).toBeNull()
    // Nothing to back up or verify either: Close is the dialog's one control (beside its corner close button), at its end.
    expect(within(dialog).queryByRole('heading', { name: 'Backups' })).toBeNull()
    const buttons = within(dialog).getAllByRole('button')
    expect(buttons.at(-1)!.textContent).toBe('Close')
  })
})
