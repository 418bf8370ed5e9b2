import type { NotificationRule, UserGroup } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
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
  const c = new QueryClient()
  c.setQueryData(userKeys.groups(), groups)
  c.setQueryData(ruleKeys.list(), [rule])
  return c
}

describe('Groups tab (User Groups & Notifications)', () => {
  it('shows each group’s rule: active switch, schedule, recipients, tracking and its actions', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client()}>
        <GroupsTab />
      </QueryClientProvider>,
    )
    expect(html).toContain('User Groups &amp; Notifications')
    expect(html).toContain('>Create Group</button>')
    expect(html).toMatch(/role="switch"[^>]*aria-checked="true"[^>]*aria-label="Notifications for Seattle Crew"/)
    expect(html).toContain('Weekly on Wednesday, not sent yet')
    expect(html).toContain('lead@acme.test')
    expect(html).toContain('Electrical Safety (Exam)')
    for (const b of ['Edit recipients of Seattle Crew', 'Configure tracking of Seattle Crew', 'Send test report of Seattle Crew']) expect(html).toContain(`aria-label="${b}"`)
    // A group whose rule notify has not made yet.
    expect(html).toContain('Setting up the notification rule...')
  })

  it('offers the frequency, the day of week for weekly only, and the searchable exams and courses to track', () => {
    const c = client()
    c.setQueryData(ruleKeys.tracking('Seattle Crew'), { rule, trackingItems: [{ type: 'exam', id: 5, name: 'Electrical Safety' }] })
    c.setQueryData(examKeys.list(), [{ id: 5, name: 'Electrical Safety' }])
    c.setQueryData(courseKeys.list(), [{ id: 9, title: 'Ladder Basics' }])
    const render = (r: NotificationRule) =>
      renderToStaticMarkup(
        <QueryClientProvider client={c}>
          <TrackingDialog rule={r} onClose={() => undefined} onSaved={() => undefined} />
        </QueryClientProvider>,
      )
    const weekly = render(rule)
    expect(weekly).toContain('Configure Tracking: Seattle Crew')
    expect(weekly).toContain('>Report Frequency</label>')
    expect(weekly).toContain('>Day of Week</label>')
    // Admin §9: "Monday 1 through Saturday 6, Sunday 0".
    expect([...weekly.matchAll(/<option value="(\d)"[^>]*>(\w+day)<\/option>/g)].map((m) => `${m[2]} ${m[1]}`)).toEqual([
      'Monday 1',
      'Tuesday 2',
      'Wednesday 3',
      'Thursday 4',
      'Friday 5',
      'Saturday 6',
      'Sunday 0',
    ])
    expect(weekly).toContain('Search exams and courses')
    expect(weekly).toContain('>Save Configuration</button>')
    expect(render({ ...rule, report_frequency: 'daily', report_day_of_week: null })).not.toContain('Day of Week')
  })
})
