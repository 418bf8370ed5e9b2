// @vitest-environment happy-dom
import { NOTIFY_MESSAGES, type NotificationRule } from '@portal/contracts'
import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAdminQueryClient } from '../query-client.ts'
import { GroupRuleCard } from './GroupRuleCard.tsx'

// A group identity has just announced: no recipients, nothing tracked, nobody in it.
const rule: NotificationRule = {
  id: 9,
  user_group: 'New Crew',
  notification_type: 'group_report',
  is_active: true,
  recipient_emails: [],
  report_frequency: 'weekly',
  report_day_of_week: 1,
  last_report_sent: null,
  trackingItems: [],
}

afterEach(() => vi.unstubAllGlobals())

/** The service's answer to Send Test Report, at the edge. */
const answer = (status: number, body: unknown) =>
  vi.stubGlobal('fetch', async (input: string | URL | Request) => {
    const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://portal.test').pathname
    if (path !== '/api/email-reports/groups/New%20Crew/send-report') return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 })
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  })

const sendTestReport = () => {
  render(
    <QueryClientProvider client={createAdminQueryClient()}>
      <GroupRuleCard rule={rule} onNotice={() => undefined} />
    </QueryClientProvider>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Send test report of New Crew' }))
}

describe("a new group's test report", () => {
  it('says what the group still lacks, as information rather than an error', async () => {
    const missing = ['recipients', 'tracked_items', 'members'] as const
    answer(422, { code: 'report_not_ready', message: NOTIFY_MESSAGES.reportNotReady(missing), details: missing })
    sendTestReport()
    const status = await screen.findByText(NOTIFY_MESSAGES.reportNotReady(missing))
    expect(status.getAttribute('role')).toBe('status')
    expect(status.textContent).toBe(
      'Nothing sent yet: this group has no recipients (add them with Edit Recipients), nothing tracked (choose exams or courses with Configure Tracking) and no members yet (people join it from the Users tab).',
    )
    expect(screen.queryByRole('alert')).toBeNull()
    expect(within(status).queryByText(/Error/)).toBeNull()
  })

  it('still reports a real failure as an error', async () => {
    answer(500, { code: 'internal_error', message: 'Internal server error' })
    sendTestReport()
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Error sending test report: /)
  })
})
