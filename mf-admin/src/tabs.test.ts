import { describe, expect, it } from 'vitest'
import { ADMIN_TABS, tabId } from './tabs.ts'

describe('admin tabs', () => {
  it('lists the six tabs in the spec’s order, then the assignments, company sign-in and the audit trail', () => {
    expect(ADMIN_TABS).toEqual(['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications', 'Assignments', 'Sign-in', 'Audit Trail'])
  })
  it('derives stable element ids', () => {
    expect(tabId('Email Settings')).toBe('admin-tab-email-settings')
  })
})
