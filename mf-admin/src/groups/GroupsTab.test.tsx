import { MESSAGES, NOTIFY_MESSAGES, type NotificationRule, type UserGroup } from '@portal/contracts'
// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { userKeys } from '../users/index.ts'
import { ruleKeys } from './data/apiHooks.ts'
import { GroupsTab } from './GroupsTab.tsx'
import { TrackingDialog } from './TrackingDialog.tsx'
import { examKeys } from '../exams/index.ts'
import { courseKeys } from '../courses/index.ts'

const groups: UserGroup[] = [
  { id: '00000000-0000-4000-8000-000000000001', name: 'Seattle Crew', created_at: '2026-01-01T00:00:00.000Z' },
  { id: '00000000-0000-4000-8000-000000000002', name: 'New Crew', created_at: '2026-01-01T00:00:00.000Z' },
]
const rule: NotificationRule = {
  id: 7,
  user_group: 'Seattle Crew',
  notification_type: 'group_report',
  is_active: true,
  recipient_emails: ['lead@acme.test'],
  report_frequency: 'weekly',
  report_day_of_week: 3,
  last_report_sent: null,
  trackingItems: [{ item_type: 'exam', item_id: 5, exam: { id: 5, name: 'Electrical Safety' }, course: null }],
}

const client = () => {
  const c = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  c.setQueryData(userKeys.groups(), groups)
  c.setQueryData(ruleKeys.list(), [rule])
  return c
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Groups tab (User Groups & Notifications)', () => {
  it('shows each group’s rule: active switch, schedule, recipients, tracking and its actions', () => {
    render(
      <QueryClientProvider client={client()}>
        <GroupsTab />
      </QueryClientProvider>,
    )
    expect(screen.getByRole('heading', { level: 2, name: 'User Groups & Notifications' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Create Group' })).toBeTruthy()
    const seattle = screen.getByRole('region', { name: 'Seattle Crew' })
    expect(within(seattle).getByRole('switch', { name: 'Notifications for Seattle Crew', checked: true })).toBeTruthy()
    expect(seattle.textContent).toContain('Weekly on Wednesday, not sent yet')
    expect(seattle.textContent).toContain('lead@acme.test')
    expect(seattle.textContent).toContain('Electrical Safety (Exam)')
    for (const b of ['Edit recipients of Seattle Crew', 'Configure tracking of Seattle Crew', 'Send test report of Seattle Crew'])
      expect(within(seattle).getByRole('button', { name: b })).toBeTruthy()
    // A group whose rule notify has not made yet.
    expect(within(screen.getByRole('region', { name: 'New Crew' })).getByText('Setting up the notification rule...')).toBeTruthy()
  })

  it('refuses a group without a name on its field and moves focus there', async () => {
    render(
      <QueryClientProvider client={client()}>
        <GroupsTab />
      </QueryClientProvider>,
    )
    const create = screen.getByRole('button', { name: 'Create Group' })
    create.focus()
    fireEvent.click(create)
    const name = screen.getByRole('textbox', { name: 'Group Name', description: MESSAGES.groupNameRequired })
    expect(name.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(name))
  })

  it('refuses a mistyped recipient on the recipients field, named in the message, and moves focus there', async () => {
    const put = vi.fn()
    vi.stubGlobal('fetch', (...args: unknown[]) => {
      put(...args)
      return new Promise(() => undefined)
    })
    render(
      <QueryClientProvider client={client()}>
        <GroupsTab />
      </QueryClientProvider>,
    )
    const seattle = screen.getByRole('region', { name: 'Seattle Crew' })
    fireEvent.click(within(seattle).getByRole('button', { name: 'Edit recipients of Seattle Crew' }))
    const field = within(seattle).getByRole('textbox', { name: 'Recipient emails of Seattle Crew' })
    fireEvent.change(field, { target: { value: 'lead@acme.test, ops@' } })
    within(seattle).getByRole('button', { name: 'Save Recipients' }).focus()
    fireEvent.click(within(seattle).getByRole('button', { name: 'Save Recipients' }))
    const marked = within(seattle).getByRole('textbox', {
      name: 'Recipient emails of Seattle Crew',
      description: `${NOTIFY_MESSAGES.recipientInvalid('ops@')} Separate addresses with commas or new lines.`,
    })
    expect(marked.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(marked))
    expect(put).not.toHaveBeenCalled()
  })

  it('offers the frequency, the day of week for weekly only, and the searchable exams and courses to track', () => {
    const c = client()
    c.setQueryData(ruleKeys.tracking('Seattle Crew'), { rule, trackingItems: [{ type: 'exam', id: 5, name: 'Electrical Safety' }] })
    c.setQueryData(examKeys.list(), [{ id: 5, name: 'Electrical Safety' }])
    c.setQueryData(courseKeys.list(), [{ id: 9, title: 'Ladder Basics' }])
    const dialogOf = (r: NotificationRule) => (
      <QueryClientProvider client={c}>
        <TrackingDialog rule={r} onClose={() => undefined} onSaved={() => undefined} />
      </QueryClientProvider>
    )
    const { unmount } = render(dialogOf(rule))
    const weekly = screen.getByRole('dialog', { name: 'Configure Tracking: Seattle Crew' })
    expect(within(weekly).getByRole('combobox', { name: 'Report Frequency' })).toBeTruthy()
    const day = within(weekly).getByRole('combobox', { name: 'Day of Week' })
    // Admin §9: "Monday 1 through Saturday 6, Sunday 0".
    expect(
      within(day)
        .getAllByRole('option')
        .map((o) => `${o.textContent} ${(o as HTMLOptionElement).value}`),
    ).toEqual(['Monday 1', 'Tuesday 2', 'Wednesday 3', 'Thursday 4', 'Friday 5', 'Saturday 6', 'Sunday 0'])
    expect(within(weekly).getByRole('searchbox', { name: 'Search exams and courses' })).toBeTruthy()
    expect(within(weekly).getByRole('button', { name: 'Save Configuration' })).toBeTruthy()
    unmount()
    render(dialogOf({ ...rule, report_frequency: 'daily', report_day_of_week: null }))
    const daily = screen.getByRole('dialog', { name: 'Configure Tracking: Seattle Crew' })
    expect(within(daily).getByRole('combobox', { name: 'Report Frequency' })).toBeTruthy()
    expect(within(daily).queryByRole('combobox', { name: 'Day of Week' })).toBeNull()
    expect(daily.textContent).not.toContain('Day of Week')
  })
})
