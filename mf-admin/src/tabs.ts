/** The six admin tabs, in the spec's order, then training that is due (issue 24), company sign-in (issue 25) and the audit trail of admin changes (issue 13). */
export const ADMIN_TABS = ['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications', 'Assignments', 'Sign-in', 'Audit Trail'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

export const tabId = (tab: AdminTab) => `admin-tab-${tab.toLowerCase().replace(/\s+/g, '-')}`
