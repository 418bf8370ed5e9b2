import { describe, expect, it } from 'vitest'
import type { Cmi5Au, Cmi5Block, Cmi5MoveOn } from '@portal/contracts'
import { moveOnMet, satisfiedParts } from './move-on.ts'

const au = (id: string): Cmi5Au => ({
  kind: 'au',
  id,
  title: id,
  description: null,
  url: `${id}.html`,
  launchMethod: 'AnyWindow',
  moveOn: 'Completed',
  masteryScore: null,
  launchParameters: null,
  entitlementKey: null,
  activityType: null,
  objectives: [],
})
const block = (id: string, children: (Cmi5Au | Cmi5Block)[]): Cmi5Block => ({ kind: 'block', id, title: id, description: null, objectives: [], children })

describe('moveOnMet (cmi5 §13.1.4 moveOn)', () => {
  const facts = [
    { completed: false, passed: false },
    { completed: true, passed: false },
    { completed: false, passed: true },
    { completed: true, passed: true },
  ]
  const table: Record<Cmi5MoveOn, boolean[]> = {
    Completed: [false, true, false, true],
    Passed: [false, false, true, true],
    CompletedOrPassed: [false, true, true, true],
    CompletedAndPassed: [false, false, false, true],
    NotApplicable: [true, true, true, true],
  }
  it.each(Object.entries(table))('%s', (moveOn, expected) => {
    expect(facts.map((f) => moveOnMet(moveOn as Cmi5MoveOn, { ...f, waived: false }))).toEqual(expected)
    // A waived AU is met whatever it reported.
    expect(facts.every((f) => moveOnMet(moveOn as Cmi5MoveOn, { ...f, waived: true }))).toBe(true)
  })
})

describe('satisfiedParts (cmi5 §9.3.9)', () => {
  const course = { children: [block('outer', [au('a'), block('inner', [au('b'), au('c')])]), au('d')] }
  it('lists the blocks whose AUs are all satisfied, nested ones first, and the course once every AU is', () => {
    expect(satisfiedParts(course, new Set(['a']))).toEqual({ blocks: [], course: false })
    expect(satisfiedParts(course, new Set(['b', 'c'])).blocks.map((b) => b.id)).toEqual(['inner'])
    expect(satisfiedParts(course, new Set(['a', 'b', 'c']))).toMatchObject({ blocks: [{ id: 'inner' }, { id: 'outer' }], course: false })
    expect(satisfiedParts(course, new Set(['a', 'b', 'c', 'd'])).course).toBe(true)
  })
})
