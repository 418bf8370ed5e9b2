import { describe, expect, it } from 'vitest'
import { tabAfterKey, tabId } from './tabs.ts'

describe('admin tabs keyboard', () => {
  it('moves with arrows and wraps around', () => {
    expect(tabAfterKey('Exams', 'ArrowRight')).toBe('Courses')
    expect(tabAfterKey('Exams', 'ArrowLeft')).toBe('Certifications')
    expect(tabAfterKey('Certifications', 'ArrowRight')).toBe('Exams')
  })
  it('jumps with Home and End and ignores other keys', () => {
    expect(tabAfterKey('Users', 'Home')).toBe('Exams')
    expect(tabAfterKey('Users', 'End')).toBe('Certifications')
    expect(tabAfterKey('Users', 'a')).toBeNull()
  })
  it('derives stable element ids', () => {
    expect(tabId('Email Settings')).toBe('admin-tab-email-settings')
  })
})
