import { DAYS_OF_WEEK, REPORT_FREQUENCY_LABELS, type NotificationRule, type TrackingItem } from '@portal/contracts'

/** Recipients as typed: separated by commas, semicolons, spaces or new lines; blanks dropped, each once. */
export const parseRecipients = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
]

/** How a rule's schedule reads: "Weekly on Monday", "Daily", "Immediate". */
export const scheduleLabel = (rule: Pick<NotificationRule, 'report_frequency' | 'report_day_of_week'>) =>
  rule.report_frequency === 'weekly' ? `Weekly on ${DAYS_OF_WEEK[rule.report_day_of_week ?? 1]}` : REPORT_FREQUENCY_LABELS[rule.report_frequency]

/** The tracked items of a rule as the UI shows them (type, id, name). */
export const trackedItemsOf = (rule: NotificationRule): TrackingItem[] =>
  rule.trackingItems.map((t) => ({ type: t.item_type, id: t.item_id, name: t.exam?.name ?? t.course?.title ?? `${t.item_type} ${t.item_id}` }))

/** Items whose name contains the search (case-insensitive). */
export const filterItems = <T extends { name: string }>(items: readonly T[], search: string): T[] => {
  const q = search.trim().toLowerCase()
  return q ? items.filter((i) => i.name.toLowerCase().includes(q)) : [...items]
}

export const itemKey = (i: Pick<TrackingItem, 'type' | 'id'>) => `${i.type}:${i.id}`
