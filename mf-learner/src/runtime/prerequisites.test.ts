import { describe, expect, it } from 'vitest'
import { prerequisiteAccess, prerequisitesMet } from './prerequisites.ts'
import { item } from '../test-support/index.ts'

const statuses = (s: Record<string, string>) => (id: string) => s[id]

describe('SCORM 1.2 prerequisites (aicc_script)', () => {
  it('reads identifiers, and, or, not, parentheses, status comparisons and "n of a set"', () => {
    const s = statuses({ a: 'completed', b: 'incomplete', c: 'passed', d: 'failed' })
    const cases: [string, boolean][] = [
      ['a', true],
      ['b', false],
      ['a & b', false],
      ['a & c', true],
      ['a | b', true],
      ['~b', true],
      ['~(a | b)', false],
      ['(a & b) | c', true],
      ['d = failed', true],
      ['d = "f"', true],
      ['b <> completed', true],
      ['x = "not attempted"', true],
      ['2*{a, b, c}', true],
      ['3*{a, b, c}', false],
      ['', true],
    ]
    for (const [expr, want] of cases) expect(prerequisitesMet(expr, s), expr).toBe(want)
  })

  it('lets an expression it cannot read through rather than locking content', () => {
    expect(prerequisitesMet('a & (', statuses({}))).toBe(true)
    expect(prerequisitesMet('a = maybe', statuses({}))).toBe(true)
  })

  it('locks an item until its prerequisites are done, naming what is missing', () => {
    const items = [
      item('first', '/1.html', [], { title: 'First lesson' }),
      item('second', '/2.html', [], { title: 'Second lesson' }),
      item('third', '/3.html', [], { title: 'Quiz', prerequisites: 'first & second' }),
    ]
    expect(prerequisiteAccess(items, statuses({}))).toEqual({ third: { kind: 'disabled', reason: 'Available after “First lesson” and “Second lesson”.' } })
    expect(prerequisiteAccess(items, statuses({ first: 'passed' }))).toEqual({ third: { kind: 'disabled', reason: 'Available after “Second lesson”.' } })
    expect(prerequisiteAccess(items, statuses({ first: 'passed', second: 'completed' }))).toEqual({})
  })
})
