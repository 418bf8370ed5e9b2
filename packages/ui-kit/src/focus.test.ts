import { describe, expect, it } from 'vitest'
import { neighbourAfterRemoval } from './focus.ts'

describe('focus after a removal', () => {
  it('goes to the item after the removed one', () => {
    expect(neighbourAfterRemoval([1, 2, 3], 1)).toBe(2)
    expect(neighbourAfterRemoval([1, 2, 3], 2)).toBe(3)
  })

  it('goes to the item before when the last one is removed', () => {
    expect(neighbourAfterRemoval(['a', 'b', 'c'], 'c')).toBe('b')
  })

  it('has nowhere to go in the list when its only item is removed or the item is not in it', () => {
    expect(neighbourAfterRemoval([7], 7)).toBeUndefined()
    expect(neighbourAfterRemoval([1, 2], 9)).toBeUndefined()
  })
})
