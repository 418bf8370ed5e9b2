import { describe, expect, it } from 'vitest'
import { tabAfterKey } from './tabs.ts'

const TABS = ['Service', 'Testing', 'All'] as const

describe('tabs keyboard', () => {
  it('moves with arrows and wraps around', () => {
    expect(tabAfterKey(TABS, 'Service', 'ArrowRight')).toBe('Testing')
    expect(tabAfterKey(TABS, 'Service', 'ArrowLeft')).toBe('All')
    expect(tabAfterKey(TABS, 'All', 'ArrowRight')).toBe('Service')
  })

  it('jumps with Home and End and ignores other keys', () => {
    expect(tabAfterKey(TABS, 'Testing', 'Home')).toBe('Service')
    expect(tabAfterKey(TABS, 'Testing', 'End')).toBe('All')
    expect(tabAfterKey(TABS, 'Testing', 'a')).toBeNull()
  })
})
