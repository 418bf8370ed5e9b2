/** The six admin tabs, in the spec's order. */
export const ADMIN_TABS = ['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

/** The tab reached from `current` by an arrow/Home/End key, or null for other keys (WAI-ARIA tabs). */
export const tabAfterKey = (current: AdminTab, key: string): AdminTab | null => {
  const i = ADMIN_TABS.indexOf(current)
  const n = ADMIN_TABS.length
  switch (key) {
    case 'ArrowRight':
      return ADMIN_TABS[(i + 1) % n]
    case 'ArrowLeft':
      return ADMIN_TABS[(i - 1 + n) % n]
    case 'Home':
      return ADMIN_TABS[0]
    case 'End':
      return ADMIN_TABS[n - 1]
    default:
      return null
  }
}

export const tabId = (tab: AdminTab) => `admin-tab-${tab.toLowerCase().replace(/\s+/g, '-')}`
