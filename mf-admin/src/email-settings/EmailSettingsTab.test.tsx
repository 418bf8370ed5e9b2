import { NOTIFY_MESSAGES, type AdminEmail } from '@portal/contracts'
// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { AdminEmailsDialog } from './AdminEmailsDialog.tsx'
import { adminEmailKeys } from './data/apiHooks.ts'
import { lrsForwardingKeys } from '../lrs-forwarding/index.ts'
import { EmailSettingsTab } from './EmailSettingsTab.tsx'

const render = (node: ReactNode, emails?: AdminEmail[]) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  if (emails) client.setQueryData(adminEmailKeys.list(), emails)
  client.setQueryData(lrsForwardingKeys.settings, {
    endpoint: '',
    username: '',
    has_password: false,
    enabled: false,
    last_sent_at: null,
    last_error: null,
    last_error_at: null,
    updated_at: null,
    waiting: 0,
    oldest_waiting_since: null,
  })
  return renderDom(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
const noop = () => undefined

describe('Email Settings tab', () => {
  it('offers Manage Global Admin Emails and says group e-mails live in the Groups tab', () => {
    render(<EmailSettingsTab />)
    expect(screen.getByRole('button', { name: 'Manage Global Admin Emails' })).toBeTruthy()
    expect(screen.getByText('Group-specific emails are configured in the Groups tab.')).toBeTruthy()
    // Statements out (issue 26): the learning record store's section.
    expect(screen.getByRole('form', { name: 'Learning record store' })).toBeTruthy()
  })

  it('lists admin e-mails with their types, an active switch, Edit and Delete, and an add form with both types on', () => {
    render(<AdminEmailsDialog onClose={noop} />, [
      { id: 1, email: 'lead@acme.test', name: 'Lead', notification_types: ['exam_completion', 'course_completion'], is_active: true, created_at: '' },
      { id: 2, email: 'off@acme.test', name: null, notification_types: ['course_completion'], is_active: false, created_at: '' },
    ])
    const dialog = screen.getByRole('dialog', { name: 'Email Notification Management' })
    const table = within(dialog).getByRole('table', { name: 'Admin emails' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Name', 'Notifications', 'Status', 'Actions'])
    expect(within(table).getByRole('switch', { name: 'Active: lead@acme.test', checked: true })).toBeTruthy()
    expect(within(table).getByRole('switch', { name: 'Active: off@acme.test', checked: false })).toBeTruthy()
    const lead = within(table).getByRole('row', { name: /lead@acme\.test/ })
    expect(within(lead).getByRole('cell', { name: 'Exam Completion, Course Completion' })).toBeTruthy()
    expect(within(table).getByRole('button', { name: 'Edit off@acme.test' })).toBeTruthy()
    expect(within(table).getByRole('button', { name: 'Delete off@acme.test' })).toBeTruthy()
    const form = within(dialog).getByRole('form', { name: 'Add admin email' })
    expect(within(form).getAllByRole('checkbox', { checked: true })).toHaveLength(2)
    expect(within(form).queryAllByRole('checkbox', { checked: false })).toHaveLength(0)
    expect(within(form).getByRole('button', { name: 'Add Email' })).toBeTruthy()
    const email = within(form).getByRole('textbox', { name: 'Email' }) as HTMLInputElement
    expect([email.type, email.required]).toEqual(['email', true])
  })

  it('says when no admin e-mail is configured', () => {
    render(<AdminEmailsDialog onClose={noop} />, [])
    expect(screen.getByText('No admin emails configured yet')).toBeTruthy()
  })

  it('refused, marks the e-mail and the notification types with their own messages and moves focus to the first', async () => {
    render(<AdminEmailsDialog onClose={noop} />, [])
    const form = screen.getByRole('form', { name: 'Add admin email' })
    fireEvent.change(within(form).getByRole('textbox', { name: 'Email' }), { target: { value: 'not-an-address' } })
    for (const box of within(form).getAllByRole('checkbox')) fireEvent.click(box)
    fireEvent.click(within(form).getByRole('button', { name: 'Add Email' }))
    const email = within(form).getByRole('textbox', { name: 'Email', description: NOTIFY_MESSAGES.emailInvalid })
    expect(email.getAttribute('aria-invalid')).toBe('true')
    const types = within(form).getByRole('group', { name: 'Notification types', description: NOTIFY_MESSAGES.typesRequired })
    for (const box of within(types).getAllByRole('checkbox', { description: NOTIFY_MESSAGES.typesRequired })) expect(box.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(email))
    // Fixed, the e-mail loses its mark on the next try; the types still hold theirs and take focus.
    fireEvent.change(email, { target: { value: 'lead@acme.test' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add Email' }))
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole('checkbox', { name: 'Exam Completion' })))
    expect(email.hasAttribute('aria-invalid')).toBe(false)
  })
})
