import { cmi5Aus, type Cmi5Au, type Cmi5Block, type Cmi5Course, type Cmi5MoveOn } from '@portal/contracts'

/** What a registration has reached in one AU (its `cmi5_au_status` row). */
export interface AuFacts {
  completed: boolean
  passed: boolean
  waived: boolean
}

/**
 * Whether an AU's moveOn criterion is met (cmi5 §13.1.4 moveOn): Completed, Passed, either, both,
 * or NotApplicable (met from the registration on, §9.6.1). A waived AU is met whatever its moveOn
 * (§9.3.7: "the AU requirements were met by means other than completing the AU").
 */
export function moveOnMet(moveOn: Cmi5MoveOn, f: AuFacts): boolean {
  if (f.waived) return true
  switch (moveOn) {
    case 'NotApplicable':
      return true
    case 'Completed':
      return f.completed
    case 'Passed':
      return f.passed
    case 'CompletedOrPassed':
      return f.completed || f.passed
    case 'CompletedAndPassed':
      return f.completed && f.passed
  }
}

/** Every block of a structure, each with its AUs (those of nested blocks too), in document order. */
export function blocksOf(course: Pick<Cmi5Course, 'children'>): { block: Cmi5Block; aus: Cmi5Au[] }[] {
  const out: { block: Cmi5Block; aus: Cmi5Au[] }[] = []
  const walk = (nodes: readonly (Cmi5Block | Cmi5Au)[]) => {
    for (const n of nodes) {
      if (n.kind === 'block') {
        out.push({ block: n, aus: cmi5Aus(n.children) })
        walk(n.children)
      }
    }
  }
  walk(course.children)
  return out
}

/**
 * What is satisfied once the AUs `satisfied` are (cmi5 §9.3.9): the blocks all of whose AUs are,
 * innermost first (a block's Satisfied before its parent's), and whether the whole course is.
 */
export function satisfiedParts(course: Pick<Cmi5Course, 'children'>, satisfied: ReadonlySet<string>): { blocks: Cmi5Block[]; course: boolean } {
  const blocks = blocksOf(course)
    .filter((b) => b.aus.every((au) => satisfied.has(au.id)))
    // Document order lists a parent before its children: reversed, nested blocks come first.
    .reverse()
    .map((b) => b.block)
  return { blocks, course: cmi5Aus(course.children).every((au) => satisfied.has(au.id)) }
}
