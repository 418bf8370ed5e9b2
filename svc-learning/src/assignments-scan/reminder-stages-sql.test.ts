import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REMINDER_STAGES, addDays, reminderStagesReached, type ReminderPlan } from '@portal/contracts'
import { TEST_PG_URL } from '@portal/server-kit/testing'
import { reminderStagesSql } from './reminder-stages-sql.ts'

let client: pg.Client
beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
})
afterAll(async () => {
  await client?.end()
})

const TODAY = '2026-11-28'
const OFFSETS = [-400, -31, -15, -14, -13, -8, -7, -6, -2, -1, 0, 1, 2, 6, 7, 8, 13, 14, 15, 30, 365]

/** Every plan around the boundaries: no reminder before, one day, a week, two; no escalation, a day, a week, two weeks. */
function plans(): ReminderPlan[] {
  const out: ReminderPlan[] = []
  for (const before_days of [0, 1, 7, 14]) {
    for (const manager_after_days of [null, 0, 1, 7]) {
      for (const operations_after_days of [null, 1, 8, 14]) out.push({ before_days, manager_after_days, operations_after_days })
    }
  }
  return out
}

describe('the reminder steps in SQL say what contracts’ reminderStagesReached says', () => {
  it('agrees on every step and their order over the boundary days and plans', async () => {
    const cases = plans().flatMap((plan) => OFFSETS.map((offset) => ({ due_on: addDays(TODAY, offset), plan })))
    const { rows } = await client.query<{ i: number; stages: string[] }>(
      `select x.ordinality::int - 1 as i, ${reminderStagesSql("(x.value ->> 'due_on')::date", '$2::date', "(x.value -> 'plan')")} as stages
         from jsonb_array_elements($1::jsonb) with ordinality x(value, ordinality)
        order by x.ordinality`,
      [JSON.stringify(cases), TODAY],
    )
    expect(rows).toHaveLength(cases.length)
    const disagreements = rows.filter((r) => JSON.stringify(r.stages) !== JSON.stringify(reminderStagesReached(cases[r.i]!.due_on, TODAY, cases[r.i]!.plan)))
    expect(disagreements.slice(0, 5).map((r) => ({ case: cases[r.i], sql: r.stages }))).toEqual([])
    // Every step is reached by some case, and so are several at once (catching up) and none.
    expect(new Set(rows.flatMap((r) => r.stages))).toEqual(new Set(REMINDER_STAGES))
    expect(rows.some((r) => r.stages.length === 3)).toBe(true)
    expect(rows.some((r) => r.stages.length === 0)).toBe(true)
  })

  it('reads a missing key of the plan as never', async () => {
    const { rows } = await client.query<{ stages: string[] }>(`select ${reminderStagesSql("'2026-11-01'::date", "'2026-11-28'::date", `'{}'::jsonb`)} as stages`)
    expect(rows[0]!.stages).toEqual(['overdue'])
  })
})
