import { describe, expect, it } from 'vitest'
import { documentTitle } from './page.ts'

describe('page titles', () => {
  it('names the page before the product', () => {
    expect(documentTitle('Technician Profile')).toBe('Technician Profile · Learning Portal')
    expect(documentTitle('')).toBe('Learning Portal')
  })
})
