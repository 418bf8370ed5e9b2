import { describe, expect, it } from 'vitest'
import { sqlConditions } from './sql-conditions.ts'

describe('sqlConditions', () => {
  it('adds a condition with its values only for the filters asked for, in order', () => {
    const c = sqlConditions(['r.user_id = ?'], ['u1'])
      .when('2026-01', 'r.month >= ?', '2026-01')
      .when(undefined, 'r.month <= ?', undefined)
      .when('x', '(a ilike ? or b ilike ?)', '%x%', '%x%')
    expect(c.where).toBe('where r.user_id = ? and r.month >= ? and (a ilike ? or b ilike ?)')
    expect(c.values).toEqual(['u1', '2026-01', '%x%', '%x%'])
  })

  it('is no clause at all when nothing was asked for', () => {
    const c = sqlConditions().when('', 'branch = ?', '').when(null, 'status = ?', null)
    expect(c.where).toBe('')
    expect(c.values).toEqual([])
  })
})
