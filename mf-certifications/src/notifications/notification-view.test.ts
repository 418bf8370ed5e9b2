import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { expiredItem, forecast, log } from './test-fixtures.ts'
import { bulkSummary, complianceTone, expiredOfBranch, saveConfigFailed, sendReminders, shownLogs, triggerAnnouncement, validateConfigForm } from './notification-view.ts'
import { CHART, chartWidth, fallingOut, forecastGroups } from './forecast-chart.ts'

describe('notification management rules', () => {
  it('colours compliance green from 90, yellow from 75, red below (admin §9)', () => {
    expect([100, 90, 89, 75, 74, 0].map(complianceTone)).toEqual(['green', 'green', 'yellow', 'yellow', 'red', 'red'])
  })

  it('announces a manual run in the exact words of admin §8, its figures apart', () => {
    const run = { id: 1, started_at: '2026-11-25T06:00:00.000Z', finished_at: '2026-11-25T06:00:01.000Z' }
    expect(triggerAnnouncement({ ...run, kind: 'daily', published: 3, paused: 0 })).toEqual({
      text: 'Daily notification check triggered successfully',
      detail: '3 notices sent, 0 withheld (notifications paused).',
    })
    expect(triggerAnnouncement({ ...run, kind: 'daily', published: 1, paused: 2 }).detail).toBe('1 notice sent, 2 withheld (notifications paused).')
    expect(triggerAnnouncement({ ...run, kind: 'weekly', published: 1, paused: 0 })).toEqual({ text: 'Weekly management report triggered successfully', detail: '1 report sent.' })
  })

  it('shows the first 20 of the 50 fetched log entries and says so', () => {
    const { rows, caption } = shownLogs(Array.from({ length: 50 }, (_, i) => log(i + 1)))
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(caption).toBe('Showing the latest 20 of 50 fetched entries.')
    expect(shownLogs([log(1)]).caption).toBe('Showing the latest 1 of 1 fetched entry.')
    expect(shownLogs([]).caption).toBe('No notifications have been logged yet.')
  })

  it('turns blank e-mails into null and refuses a malformed one by field', () => {
    const ok = validateConfigForm({ manager_email: ' Boss@Example.com ', operations_manager_email: '', additional_email_1: '', additional_email_2: '', is_active: true })
    expect(ok).toEqual({ body: { manager_email: 'boss@example.com', operations_manager_email: null, additional_email_1: null, additional_email_2: null, is_active: true } })
    const bad = validateConfigForm({ manager_email: 'ops@example.com', operations_manager_email: 'not-an-email', additional_email_1: '', additional_email_2: '', is_active: false })
    expect(bad).toEqual({ errors: { operations_manager_email: 'Please enter a valid email address' } })
  })

  it('words a failed save as admin §8 does, with the server message or Unknown error', () => {
    expect(saveConfigFailed(new ApiError(422, 'x', 'x', {}, 'Add a manager email first'))).toBe('Failed to save configuration: Add a manager email first')
    expect(saveConfigFailed(new ApiError(0, 'network_error', 'Network error', null))).toBe('Failed to save configuration: Unknown error')
  })

  it('filters expired certifications by branch, most overdue first', () => {
    const items = [expiredItem(1, 'Seattle', -3), expiredItem(2, 'Portland', -40), expiredItem(3, 'Seattle', -10)]
    expect(expiredOfBranch(items, 'Seattle').map((i) => i.technician_certification_id)).toEqual([3, 1])
    expect(expiredOfBranch(items, '').map((i) => i.technician_certification_id)).toEqual([2, 3, 1])
  })

  it('repeats the single reminder per item and counts successes and failures without stopping', async () => {
    const calls: number[] = []
    const outcome = await sendReminders([expiredItem(1, 'Seattle', -1), expiredItem(2, 'Seattle', -2), expiredItem(3, 'Portland', -3)], async (id) => {
      calls.push(id)
      if (id === 2) throw new ApiError(409, 'paused', 'x', {}, 'Notifications are paused for this technician')
    })
    expect(calls).toEqual([1, 2, 3])
    expect(outcome.succeeded.map((i) => i.technician_certification_id)).toEqual([1, 3])
    expect(outcome.failed).toEqual([{ item: expect.objectContaining({ technician_certification_id: 2 }), message: 'Notifications are paused for this technician' }])
    expect(bulkSummary(outcome)).toBe('Reminders sent: 2 succeeded, 1 failed.')
  })

  it('draws the forecast as bars per branch, today then each horizon, as tall as the percentage', () => {
    const groups = forecastGroups(forecast)
    expect(groups.map((g) => g.branch)).toEqual(['Portland', 'Seattle'])
    const portland = groups[0]!.bars
    expect(portland.map((b) => [b.label, b.percent, b.tone])).toEqual([
      ['Today', 100, 'green'],
      ['30 days', 80, 'yellow'],
      ['60 days', 80, 'yellow'],
      ['90 days', 60, 'red'],
    ])
    expect(portland[0]!.height).toBeCloseTo(portland[3]!.height / 0.6)
    expect(portland[0]!.y + portland[0]!.height).toBeCloseTo(portland[3]!.y + portland[3]!.height)
    expect(groups[1]!.bars[0]!.x).toBeGreaterThan(portland[3]!.x + portland[3]!.width)
    expect(fallingOut(forecast).map((t) => [t.name, t.branch])).toEqual([
      ['Pat Portland', 'Portland'],
      ['Quinn Portland', 'Portland'],
    ])
  })

  it('draws the forecast as wide as its box, and on a narrow box no bar narrower than its label (the box then scrolls)', () => {
    expect(chartWidth(forecast, 1000)).toBe(1000)
    const narrow = chartWidth(forecast, 300)
    expect(narrow).toBeGreaterThan(300)
    const bars = forecastGroups(forecast, narrow).flatMap((g) => g.bars)
    expect(Math.min(...bars.map((b) => b.width))).toBeGreaterThanOrEqual(CHART.minBar)
    // Wide, the bars keep a readable width and stand centred in their branch, the last group ending at the right edge.
    const wide = forecastGroups(forecast, 1000)
    expect(Math.max(...wide.flatMap((g) => g.bars.map((b) => b.width)))).toBeLessThanOrEqual(CHART.maxBar)
    const last = wide.at(-1)!
    expect(last.x + last.width).toBeCloseTo(1000 - CHART.right)
    expect(last.bars[0]!.x - last.x).toBeCloseTo(last.x + last.width - (last.bars.at(-1)!.x + last.bars.at(-1)!.width))
  })
})
