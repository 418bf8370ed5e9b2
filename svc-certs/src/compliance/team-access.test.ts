import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

/** Who may call what (DESIGN "Security"): technicians their own revenue only, managers their scope, admins all. */
let h: Harness
let admin: TestUser
let member: TestUser
let other: TestUser
let inScope: TestUser
let outOfScope: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  member = await h.user({ branch: 'Portland', department: 'Service' })
  other = await h.user({ branch: 'Portland', department: 'Service' })
  inScope = await h.user({ manager: { branches: ['Portland'], departments: ['Service'] }, branch: 'Seattle' })
  outOfScope = await h.user({ manager: { branches: ['Seattle'], departments: [] }, branch: 'Seattle' })
  const type = await h.type(admin, { tier_level: 0 })
  await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 0, certification_id: type.id, is_required: true } })
  await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: member.id, month: '2025-06', gross_revenue: 100, pay_amount: 10 } })
})
afterAll(async () => {
  await h?.close()
})

type Caller = 'self' | 'other technician' | 'manager in scope' | 'manager out of scope' | 'admin' | 'unauthenticated'
const callers: Caller[] = ['self', 'other technician', 'manager in scope', 'manager out of scope', 'admin', 'unauthenticated']
const token = (who: Caller) =>
  ({
    self: member.token,
    'other technician': other.token,
    'manager in scope': inScope.token,
    'manager out of scope': outOfScope.token,
    admin: admin.token,
    unauthenticated: undefined,
  })[who]

let month = 0
/** A fresh pending promotion request for the member (deciding it needs one). */
const pendingRequest = async () => {
  await h.sql(`delete from promotion_requests where user_id = ? and status = 'pending'`, [member.id])
  await h.sql(`update technicians set current_tier = 0 where user_id = ?`, [member.id])
  const res = await h.call('POST', '/manager/tier-promotion', { token: admin.token, body: { userId: member.id, newTier: 2, justification: 'ok' } })
  return res.body.request.id as number
}

const routes: { name: string; call: (t: string | undefined) => Promise<{ status: number }>; expect: Record<Caller, number> }[] = [
  {
    name: 'GET /manager/team',
    call: (t) => h.call('GET', '/manager/team', { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 200, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'GET /manager/team/{userId}',
    call: (t) => h.call('GET', `/manager/team/${member.id}`, { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'PUT /manager/rev-pay/{userId}',
    call: (t) => h.call('PUT', `/manager/rev-pay/${member.id}`, { token: t, body: { revPayRatio: 30 } }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'POST /manager/tier-promotion',
    call: async (t) => {
      await h.sql(`delete from promotion_requests where user_id = ?`, [member.id])
      return h.call('POST', '/manager/tier-promotion', { token: t, body: { userId: member.id, newTier: 2, justification: 'ready' } })
    },
    expect: { self: 403, 'other technician': 403, 'manager in scope': 201, 'manager out of scope': 403, admin: 201, unauthenticated: 401 },
  },
  {
    name: 'GET /manager/tier-promotions',
    call: (t) => h.call('GET', '/manager/tier-promotions', { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 200, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'POST /manager/tier-promotions/{id}/decision',
    call: async (t) => h.call('POST', `/manager/tier-promotions/${await pendingRequest()}/decision`, { token: t, body: { approve: false } }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'POST /manager/team/{userId}/reminder',
    call: (t) => h.call('POST', `/manager/team/${member.id}/reminder`, { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 202, 'manager out of scope': 403, admin: 202, unauthenticated: 401 },
  },
  {
    name: 'GET /manager/team/{userId}/report',
    call: (t) => h.download(`/manager/team/${member.id}/report`, t),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'GET /reports/certifications/export',
    call: (t) => h.download('/reports/certifications/export?format=excel', t),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 200, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'POST /revenue/manual-entry',
    call: (t) =>
      h.call('POST', '/revenue/manual-entry', { token: t, body: { user_id: member.id, month: `2020-${String((month++ % 12) + 1).padStart(2, '0')}`, gross_revenue: 1 } }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 201, unauthenticated: 401 },
  },
  {
    name: 'GET /revenue/recent-entries',
    call: (t) => h.call('GET', '/revenue/recent-entries', { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'GET /revenue/user/{id}',
    call: (t) => h.call('GET', `/revenue/user/${member.id}`, { token: t }),
    expect: { self: 200, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
  },
  {
    name: 'GET /revenue/leaderboard',
    call: (t) => h.call('GET', '/revenue/leaderboard?period=yearly&date=2025-06', { token: t }),
    expect: { self: 403, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 200, admin: 200, unauthenticated: 401 },
  },
]

describe('who may call the team, promotion, report and revenue routes', () => {
  it.each(routes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const got: Record<string, number> = {}
    for (const who of callers) got[who] = (await route.call(token(who))).status
    expect(got).toEqual(route.expect)
  })

  it('shows a manager out of scope neither the member nor their revenue on the leaderboard', async () => {
    const team = await h.call('GET', '/manager/team', { token: outOfScope.token })
    expect(team.body.teamMembers.map((m: { id: string }) => m.id)).not.toContain(member.id)
    const board = await h.call('GET', '/revenue/leaderboard?period=yearly&date=2025-06', { token: outOfScope.token })
    expect(board.body.rows).toEqual([])
    const inBoard = await h.call('GET', '/revenue/leaderboard?period=yearly&date=2025-06', { token: inScope.token })
    expect(inBoard.body.rows.map((r: { user_id: string }) => r.user_id)).toEqual([member.id])
  })
})
