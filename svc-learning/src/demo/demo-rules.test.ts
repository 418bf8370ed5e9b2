import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MyAssignments, type Branch } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { DEMO_COURSE_TITLE } from './demo-course.ts'
import { seedDemoData } from './demo-data.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

/** A demo-like user announced by identity; resolves with their token. */
async function demoUser(o: { name: string; branch: Branch | null; hireDate: string | null; admin?: boolean }) {
  const actor = {
    userId: crypto.randomUUID(),
    email: `${o.name.toLowerCase().replace(/ /g, '.')}@acme.test`,
    name: o.name,
    isAdmin: Boolean(o.admin),
    isManager: false,
    managerScope: { branches: [], departments: [] },
  }
  await h.bus.publish({
    id: crypto.randomUUID(),
    type: 'identity.user.registered.v1',
    occurredAt: new Date().toISOString(),
    data: { ...actor, branch: o.branch, department: null, userGroup: null, employeeId: null, hireDate: o.hireDate },
  })
  return h.issuer.sign(actor)
}
const mine = async (token: string) => MyAssignments.parse((await h.call('GET', '/assignments/mine', { token })).body).assignments.map((a) => [a.item_title, a.state])

describe('the demo’s assignment rules', () => {
  it('show the demo technicians overdue and due-soon training on a first start, whenever they reach learning, and are made once', async () => {
    const at = h.now()
    await h.sql('insert into courses (title, is_assigned_to_all, created_at, updated_at) values (?, true, ?, ?)', [DEMO_COURSE_TITLE, at, at])
    const pat = await demoUser({ name: 'Pat Portland', branch: 'Portland', hireDate: '2022-01-10' })
    await demoUser({ name: 'Alex Admin', branch: null, hireDate: '2019-03-04', admin: true })
    expect(await seedDemoData({ orm: h.orm, ctx: h.ctx })).toEqual(['Electrical Safety Basics', 'Lockout/Tagout Certification'])
    expect(await h.sql('select count(*)::int as n from assignment_rules')).toEqual([{ n: 3 }])
    expect(await mine(pat)).toEqual([
      [DEMO_COURSE_TITLE, 'overdue'],
      ['Lockout/Tagout Certification', 'due_soon'],
      ['Electrical Safety Basics', 'open'],
    ])
    // Arriving after the seeding: the same rules, the same dates.
    const noa = await demoUser({ name: 'Noa Newhire', branch: null, hireDate: null })
    const sam = await demoUser({ name: 'Sam Seattle', branch: 'Seattle', hireDate: '2021-09-01' })
    // Both due in 30 days: by title.
    expect(await mine(noa)).toEqual([
      ['Electrical Safety Basics', 'open'],
      [DEMO_COURSE_TITLE, 'open'],
    ])
    expect(await mine(sam)).toEqual([
      [DEMO_COURSE_TITLE, 'overdue'],
      ['Electrical Safety Basics', 'open'],
    ])
    // A later start makes nothing again, also after an admin deleted every rule.
    await h.sql('update assignment_rules set deleted_at = now()')
    expect(await seedDemoData({ orm: h.orm, ctx: h.ctx })).toEqual([])
    expect(await h.sql('select count(*)::int as n from assignment_rules')).toEqual([{ n: 3 }])
  })
})
