import { describe, expect, it } from 'vitest'
import { filterItems, parseRecipients, scheduleLabel, trackedItemsOf } from './rule-view.ts'

describe('group rule view', () => {
  it('reads recipients separated by commas, spaces or lines, each once', () => {
    expect(parseRecipients(' Lead@acme.test, ops@acme.test;\nlead@acme.test  ')).toEqual(['lead@acme.test', 'ops@acme.test'])
    expect(parseRecipients('  ')).toEqual([])
  })

  it('names the schedule with the day only for weekly', () => {
    expect(scheduleLabel({ report_frequency: 'weekly', report_day_of_week: 0 })).toBe('Weekly on Sunday')
    expect(scheduleLabel({ report_frequency: 'monthly', report_day_of_week: null })).toBe('Monthly')
    expect(scheduleLabel({ report_frequency: 'immediate', report_day_of_week: null })).toBe('Immediate')
  })

  it('shows tracked items by type, id and name, and filters them by name', () => {
    const items = trackedItemsOf({
      id: 1,
      user_group: 'G',
      notification_type: 'group_report',
      is_active: true,
      recipient_emails: [],
      report_frequency: 'daily',
      report_day_of_week: null,
      last_report_sent: null,
      trackingItems: [
        { item_type: 'exam', item_id: 3, exam: { id: 3, name: 'Safety' }, course: null },
        { item_type: 'course', item_id: 4, exam: null, course: { id: 4, title: 'Ladders' } },
      ],
    })
    expect(items).toEqual([
      { type: 'exam', id: 3, name: 'Safety' },
      { type: 'course', id: 4, name: 'Ladders' },
    ])
    expect(filterItems(items, ' LAD')).toEqual([{ type: 'course', id: 4, name: 'Ladders' }])
  })
})
