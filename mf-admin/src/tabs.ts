import { tabAfterKey as nextTab } from '@portal/ui-kit'

/** The six admin tabs, in the spec's order. */
export const ADMIN_TABS = ['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

/** The tab reached from `current` by an arrow/Home/End key, or null for other keys (WAI-ARIA tabs). */
export const tabAfterKey = (current: AdminTab, key: string): AdminTab | null => nextTab(ADMIN_TABS, current, key)

export const tabId = (tab: AdminTab) => `admin-tab-${tab.toLowerCase().replace(/\s+/g, '-')}`
