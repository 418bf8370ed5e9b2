// @vitest-environment happy-dom
import { CERT_NOTIFICATION_MESSAGES } from '@portal/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { holdRequests, renderWithClient } from '../test/index.ts'
import { ConfigDialog } from './ConfigDialog.tsx'
import { config } from './test-fixtures.ts'

const noop = () => undefined

// No request leaves the test: whatever is not in the cache stays loading.
holdRequests()

describe('email configuration form errors', () => {
  it('marks each address that is not one, ties its message and focuses the first', async () => {
    renderWithClient(<ConfigDialog config={config(1)} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: /^Edit Configuration: / })
    const operations = within(dialog).getByRole('textbox', { name: 'Operations Manager Email (expired escalation)' })
    const additional = within(dialog).getByRole('textbox', { name: 'Additional Email 2 (expired notifications)' })
    await userEvent.type(operations, 'ops at example')
    await userEvent.type(additional, 'nobody@')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    for (const field of [operations, additional]) expect(field.getAttribute('aria-invalid')).toBe('true')
    // Each is described by its own message; the fields left empty are not marked.
    expect(within(dialog).getAllByRole('textbox', { description: CERT_NOTIFICATION_MESSAGES.invalidEmail })).toEqual([operations, additional])
    expect(dialog.querySelectorAll('[aria-invalid="true"]')).toHaveLength(2)
    await waitFor(() => expect(document.activeElement).toBe(operations))
    expect(fetch).not.toHaveBeenCalled()
  })
})
