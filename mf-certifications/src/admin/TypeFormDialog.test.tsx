// @vitest-environment happy-dom
import { CERT_MESSAGES } from '@portal/contracts'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { holdRequests, renderWithClient } from '../test/index.ts'
import { TypeFormDialog } from './TypeFormDialog.tsx'

const noop = () => undefined

// No request leaves the test: whatever is not in the cache stays loading.
holdRequests()

describe('certification type form errors', () => {
  it('saved empty, marks Name and Code with their messages and focuses Name', async () => {
    renderWithClient(<TypeFormDialog editing={{ mode: 'add', tab: 'Service' }} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Certification' }))
    const name = within(dialog).getByRole('textbox', { name: 'Name', description: CERT_MESSAGES.nameRequired })
    const code = within(dialog).getByRole('textbox', { name: 'Code', description: CERT_MESSAGES.codeRequired })
    for (const field of [name, code]) expect(field.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(name))
  })

  it('ties a description that is too long to its message and focuses it', async () => {
    renderWithClient(<TypeFormDialog editing={{ mode: 'add', tab: 'Service' }} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Lockout/Tagout')
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'LOTO')
    const description = within(dialog).getByRole('textbox', { name: 'Description' })
    fireEvent.change(description, { target: { value: 'x'.repeat(20_001) } })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Certification' }))
    expect(description.getAttribute('aria-invalid')).toBe('true')
    const message = document.getElementById(description.getAttribute('aria-describedby')!)
    expect(message?.className).toBe('pk-error')
    expect(message?.textContent).toMatch(/\S/)
    await waitFor(() => expect(document.activeElement).toBe(description))
  })
})
