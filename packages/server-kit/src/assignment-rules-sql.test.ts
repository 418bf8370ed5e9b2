import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, assignmentState, effectiveDueOn, type AssignmentFacts } from '@portal/contracts'
import { assignmentRoutines } from './assignment-rules-sql.ts'
import { createTestDatabase } from './testing.ts'

let db: Awaited<ReturnType<typeof createTestDatabase>>
let client: pg.Client
beforeAll(async () => {
  db = await createTestDatabase('assignment_rules')
  client = new pg.Client({ connectionString: db.url })
  await client.connect()
  for (const statement of assignmentRoutines()) await client.query(statement)
})
afterAll(async () => {
  await client?.end()
  await db?.drop()
})

const TODAY = '2026-11-28'
const OFFSETS = [-400, -31, -8, -7, -6, -1, 0, 1, 6, 7, 8, 30, 365]

/** Every combination of the facts around the boundary days: open, completed, recurring, rolled over, exempt. */
function cases(): AssignmentFacts[] {
  const out: AssignmentFacts[] = []
  for (const dueOffset of OFFSETS) {
    const due_on = addDays(TODAY, dueOffset)
    for (const opens of [null, -3, 0, 2]) {
      const opens_on = opens === null ? null : addDays(TODAY, opens)
      for (const completed of [null, -1, 0, dueOffset, dueOffset + 1]) {
        const completed_on = completed === null ? null : addDays(TODAY, completed)
        for (const next of [null, -2, 0, 5, 20]) {
          const next_due_on = next === null || completed_on === null ? null : addDays(TODAY, next)
          for (const window of [null, 0, 10]) {
            const next_opens_on = next_due_on === null || window === null ? null : addDays(next_due_on, -window)
            for (const exempt of [false, true]) {
              for (const due_soon_days of [0, 7]) out.push({ due_on, opens_on, completed_on, next_due_on, next_opens_on, exempt, due_soon_days })
            }
          }
        }
      }
    }
  }
  return out
}

describe('the assignment state rule in SQL says what contracts’ assignment-rules says', () => {
  it('agrees on the state and the due date that counts over every boundary combination', async () => {
    const all = cases()
    const { rows } = await client.query<{ i: number; state: string; due: string }>(
      `select x.ordinality::int - 1 as i,
              assignment_state(f.due_on, f.opens_on, f.completed_on, f.next_due_on, f.next_opens_on, f.exempt, f.due_soon_days, $2::date) as state,
              to_char(assignment_effective_due(f.due_on, f.completed_on, f.next_due_on, f.next_opens_on, $2::date), 'YYYY-MM-DD') as due
         from jsonb_array_elements($1::jsonb) with ordinality x(value, ordinality)
         cross join lateral jsonb_to_record(x.value) as f(due_on date, opens_on date, completed_on date, next_due_on date, next_opens_on date, exempt boolean, due_soon_days integer)
        order by x.ordinality`,
      [JSON.stringify(all), TODAY],
    )
    expect(rows).toHaveLength(all.length)
    const disagreements = rows.filter((r) => r.state !== assignmentState(all[r.i]!, TODAY) || r.due !== effectiveDueOn(all[r.i]!, TODAY))
    expect(disagreements.slice(0, 5).map((r) => ({ facts: all[r.i], sql: r }))).toEqual([])
    // Every state is reached by some case, so the agreement covers them all.
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['overdue', 'due_soon', 'open', 'not_due_yet', 'completed_late', 'completed_on_time', 'exempt']))
  })
})
