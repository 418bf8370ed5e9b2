import type { AdminEmail } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AdminEmailsDialog } from './AdminEmailsDialog.tsx'
import { adminEmailKeys } from './data/apiHooks.ts'
import { EmailSettingsTab } from './EmailSettingsTab.tsx'

const render = (node: ReactNode, emails?: AdminEmail[]) => {
  const client = new QueryClient()
  if (emails) client.setQueryData(adminEmailKeys.list(), emails)
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
const noop = () => undefined

describe('Email Settings tab', () => {
  it('offers Manage Global Admin Emails and says group e-mails live in the Groups tab', () => {
    const html = render(<EmailSettingsTab />)
    expect(html).toContain('>Manage Global Admin Emails</button>')
    expect(html).toContain('Group-specific emails are configured in the Groups tab.')
  })

  it('lists admin e-mails with their types, an active switch, Edit and Delete, and an add form with both types on', () => {
    const html = render(<AdminEmailsDialog onClose={noop} />, [
      { id: 1, email: 'lead@acme.test', name: 'Lead', notification_types: ['exam_completion', 'course_completion'], is_active: true, created_at: '' },
      { id: 2, email: 'off@acme.test', name: null, notification_types: ['course_completion'], is_active: false, created_at: '' },
    ])
    expect(html).toContain('Email Notification Management')
    for (const col of ['Email', 'Name', 'Notifications', 'Status', 'Actions']) expect(html).toContain(`<th scope="col">${col}</th>`)
    expect(html).toMatch(/role="switch"[^>]*aria-checked="true"[^>]*aria-label="Active: lead@acme.test"/)
    expect(html).toMatch(/role="switch"[^>]*aria-checked="false"[^>]*aria-label="Active: off@acme.test"/)
    expect(html).toContain('Exam Completion, Course Completion')
    expect(html).toContain('aria-label="Edit off@acme.test"')
    expect(html).toContain('aria-label="Delete off@acme.test"')
    expect(html.match(/type="checkbox" checked=""/g)).toHaveLength(2)
    expect(html).toContain('>Add Email</button>')
    expect(html).toMatch(/<input[^>]*type="email"[^>]*required=""/)
  })

  it('says when no admin e-mail is configured', () => {
    expect(render(<AdminEmailsDialog onClose={noop} />, [])).toContain('No admin emails configured yet')
  })
})
