import { vi } from 'vitest'
import { PersonAssignment } from '@portal/contracts'

/**
 * Answers the portal's API at the browser's edge (fetch): `answers` by "METHOD /api/path?query"
 * or by the path alone; any other request stays pending, so none leaves the test. Records what was asked.
 */
export function answerApi(answers: Record<string, (init: RequestInit) => Response | Promise<Response>>) {
  const calls: string[] = []
  const fetchStub = vi.fn((url: string, init: RequestInit = {}) => {
    const asked = `${init.method ?? 'GET'} ${url}`
    calls.push(asked)
    const answer = answers[asked] ?? answers[url]
    return answer ? Promise.resolve(answer(init)) : new Promise<Response>(() => undefined)
  })
  vi.stubGlobal('fetch', fetchStub)
  return { calls, fetchStub }
}

/** A JSON answer. */
export const json = (body: unknown, status = 200) => Response.json(body, { status })

/** One of the learner's assignments, shaped (and checked) by the contract: an open course due in 20 days. */
export const assignment = (over: Partial<PersonAssignment> = {}): PersonAssignment =>
  PersonAssignment.parse({
    rule_id: 1,
    item_kind: 'course',
    item_id: 1,
    item_title: 'Course 1',
    state: 'open',
    assigned_on: '2026-11-01',
    due_on: '2026-12-15',
    opens_on: null,
    completed_on: null,
    next_due_on: null,
    recurring: false,
    days_left: 20,
    exempt_reason: null,
    ...over,
  })

/** The company's today of the fixtures. */
export const TODAY = '2026-11-25'
