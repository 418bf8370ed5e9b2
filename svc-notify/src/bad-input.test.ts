import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { malformedBodyAnswers } from '@portal/server-kit/testing'
import { createHarness, type Harness } from './harness.test-support.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h?.close())

describe('bad input on every route (DESIGN "Errors": never a 500)', () => {
  it('answers malformed bodies of every type on every route that takes one with a 4xx in the error shape', async () => {
    const admin = await h.user({ admin: true })
    const rule = await h.group('Fuzz Crew')
    expect(await malformedBodyAnswers(h.app, { token: admin.token, params: { id: String(rule), group: 'Fuzz Crew' } })).toEqual([])
  })
})
