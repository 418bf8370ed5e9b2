import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../harness.test-support.ts'
import { SCO_REPORTS_COMPLETE } from './sco-complete.ts'
import { summarize } from './summary.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

/** Commits as content sends them: 1.2 and 2004, nested, bare and flattened, complete or not. */
const trees: Record<string, unknown>[] = [
  { cmi: { core: { lesson_status: 'completed' } } },
  { cmi: { core: { lesson_status: 'passed' } } },
  { cmi: { core: { lesson_status: 'failed' } } },
  { cmi: { core: { lesson_status: 'incomplete' } } },
  { 'cmi.core.lesson_status': 'passed' },
  { 'cmi.core.lesson_status': 'browsed' },
  { cmi: { completion_status: 'completed', success_status: 'failed' } },
  { cmi: { completion_status: 'incomplete', success_status: 'passed' } },
  { cmi: { completion_status: 'incomplete', success_status: 'unknown' } },
  { completion_status: 'completed' },
  { success_status: 'failed', completion_status: 'unknown' },
  { 'cmi.completion_status': 'completed' },
  { 'cmi.success_status': 'passed', 'cmi.completion_status': 'incomplete' },
  { 'cmi.completion_status': 'not attempted' },
  {},
]

describe('the SCO reports complete', () => {
  it('says the same of a commit (TypeScript) and of its stored row (SQL)', async () => {
    const seen = new Set<boolean>()
    for (const tree of trees) {
      const summary = summarize(tree)
      // As a where clause: unknown (null, a path the tree lacks) filters the row out like false.
      const [row] = await h.sql<{ ok: boolean }>(`select coalesce(${SCO_REPORTS_COMPLETE}, false) as ok from (select ?::text as lesson_status, ?::jsonb as cmi) s`, [
        summary.lessonStatus,
        JSON.stringify(tree),
      ])
      expect({ tree, sql: row!.ok }).toEqual({ tree, sql: summary.complete })
      seen.add(summary.complete)
    }
    expect([...seen].sort()).toEqual([false, true])
  })
})
