import { COURSE_MESSAGES } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { assignError } from './AssignDialog.tsx'

describe('assign dialog error', () => {
  it('shows nothing before the first try', () => {
    expect(assignError(false, 0, null)).toBeNull()
  })

  it('asks for a user after a try with nobody ticked', () => {
    expect(assignError(true, 0, null)).toBe(COURSE_MESSAGES.selectAtLeastOneUser)
  })

  it('goes as soon as a user is ticked (or Select All ticks several)', () => {
    expect(assignError(true, 1, null)).toBeNull()
    expect(assignError(true, 4, null)).toBeNull()
  })

  it("shows a failed call's message while users are ticked", () => {
    expect(assignError(true, 2, 'Failed to assign course')).toBe('Failed to assign course')
  })
})
