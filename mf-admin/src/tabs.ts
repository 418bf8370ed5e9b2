/** The six admin tabs, in the spec's order. */
export const ADMIN_TABS = ['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

export const tabId = (tab: AdminTab) => `admin-tab-${tab.toLowerCase().replace(/\s+/g, '-')}`
