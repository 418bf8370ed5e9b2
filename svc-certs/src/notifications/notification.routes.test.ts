import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CertificationDashboard,
  ComplianceForecast,
  NotificationConfigsResponse,
  NotificationLogsResponse,
  NotificationStats,
  CertReminderResponse,
  TriggerResponse,
  todayIso,
  type Branch,
  type Department,
  type NotificationLog,
} from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { loadNotifySchedule } from '../env.ts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { createAckSigner } from './acknowledgement.ts'
import { DEFAULT_SCHEDULE, createNotificationRunner } from './notification.runner.ts'

let h: Harness
let admin: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
}, 30_000)
afterAll(() => h?.close())

const DAY = 86_400_000
const daysFromToday = (days: number) => h.daysFromToday(days)
const configOf = async (branch: Branch, department: Department) =>
  (await h.call('GET', `/certification-notifications/configs/${branch}/${department}`, { token: admin.token })).body.config as { id: number }
const configure = async (branch: Branch, department: Department, body: Record<string, unknown>) => {
  const { id } = await configOf(branch, department)
  const res = await h.call('PUT', `/certification-notifications/configs/${id}`, { token: admin.token, body })
  expect(res.status).toBe(200)
  return res.body.config
}
/** A technician holding one certification that expires in `days` days. */
const holder = async (days: number, o: { branch?: Branch; department?: Department; name?: string } = {}) => {
  const tech = await h.user({ name: o.name ?? 'Tech', branch: o.branch ?? 'Portland', department: o.department ?? 'Service' })
  const type = await h.type(admin, { validity_period: 24 })
  const res = await h.call('POST', '/technician/certifications/add', {
    token: tech.token,
    body: { certification_id: type.id, certification_number: 'N-1', obtained_date: daysFromToday(days - 700), expiration_date: daysFromToday(days) },
  })
  expect(res.status).toBe(201)
  return { tech, type, certId: res.body.certification.id as number }
}
const trigger = (kind: 'daily' | 'weekly') => h.call('POST', `/certification-notifications/trigger/${kind}`, { token: admin.token })
const expiryEvents = async (userIds: string[]) =>
  [...(await h.events('certs.certification.expiring.v1')), ...(await h.events('certs.certification.expired.v1'))].filter((e) => userIds.includes(e.data.technician.userId))
const logsOf = async (userIds: string[]): Promise<NotificationLog[]> => {
  const res = await h.call('GET', '/certification-notifications/logs?limit=500', { token: admin.token })
  expect(res.status).toBe(200)
  return NotificationLogsResponse.parse(res.body).logs.filter((l) => l.technician && userIds.includes(l.technician.id))
}

describe('configurations (admin §2, §3)', () => {
  it('lists every branch and department combination, inactive and empty until filled', async () => {
    const res = await h.call('GET', '/certification-notifications/configs', { token: admin.token })
    expect(res.status).toBe(200)
    const { configs } = NotificationConfigsResponse.parse(res.body)
    expect(configs).toHaveLength(14)
    expect(configs.slice(0, 4).map((c) => `${c.branch}/${c.department}`)).toEqual(['Portland/Service', 'Portland/Testing', 'Portland/Construction', 'Portland/Electricians'])
    expect(configs.some((c) => c.branch === 'Anchorage' && c.department === 'Electricians')).toBe(false)
    const untouched = configs.find((c) => c.branch === 'Tri-Cities' && c.department === 'Testing')!
    expect(untouched).toMatchObject({ is_active: false, manager_email: null, operations_manager_email: null, additional_email_1: null, additional_email_2: null })
  })

  it('reads one by branch and department; a combination that does not exist is 404, a bad name 400', async () => {
    expect(await configOf('Seattle', 'Testing')).toMatchObject({ id: expect.any(Number) })
    const missing = await h.call('GET', '/certification-notifications/configs/Anchorage/Electricians', { token: admin.token })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('Configuration not found')
    expect((await h.call('GET', '/certification-notifications/configs/Paris/Service', { token: admin.token })).status).toBe(400)
  })

  it('saves e-mails (blank becomes null, invalid refused), toggles active, refuses activating without a manager or operations e-mail', async () => {
    const { id } = await configOf('Seattle', 'Construction')
    const put = (body: unknown) => h.call('PUT', `/certification-notifications/configs/${id}`, { token: admin.token, body })
    const bad = await put({ manager_email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('Please enter a valid email address')
    const empty = await put({ is_active: true })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe('Add a manager or operations manager email before activating this configuration')

    const saved = await put({
      manager_email: ' Boss@Acme.test ',
      operations_manager_email: 'ops@acme.test',
      additional_email_1: '',
      additional_email_2: 'x@acme.test',
      is_active: true,
    })
    expect(saved.status).toBe(200)
    expect(saved.body.message).toBe('Configuration updated successfully!')
    expect(saved.body.config).toMatchObject({
      manager_email: 'boss@acme.test',
      operations_manager_email: 'ops@acme.test',
      additional_email_1: null,
      additional_email_2: 'x@acme.test',
      is_active: true,
    })
    // The toggle sends is_active alone; the e-mails stay.
    const off = await put({ is_active: false })
    expect(off.body.config).toMatchObject({ is_active: false, manager_email: 'boss@acme.test' })
    expect((await h.call('PUT', '/certification-notifications/configs/999999', { token: admin.token, body: { is_active: false } })).status).toBe(404)
  })

  it('is for admins only', async () => {
    const tech = await h.user()
    expect((await h.call('GET', '/certification-notifications/configs')).status).toBe(401)
    for (const [method, path] of [
      ['GET', '/certification-notifications/configs'],
      ['GET', '/certification-notifications/logs'],
      ['GET', '/certification-notifications/dashboard'],
      ['GET', '/certification-notifications/stats'],
      ['GET', '/certification-notifications/forecast'],
      ['POST', '/certification-notifications/trigger/daily'],
      ['POST', '/certification-notifications/trigger/weekly'],
      ['POST', '/certification-notifications/send-reminder'],
    ] as const)
      expect((await h.call(method, path, { token: tech.token, body: method === 'POST' ? { technician_certification_id: 1 } : undefined })).status).toBe(403)
  })
})

describe('daily check (bands, escalations, pause, exactly once)', () => {
  it('sends each band once, escalates at 7 days and on expiry, withholds a paused technician’s own mail, and nothing on a second run', async () => {
    await configure('Portland', 'Testing', {
      manager_email: 'manager@acme.test',
      operations_manager_email: 'ops@acme.test',
      additional_email_1: 'extra1@acme.test',
      additional_email_2: 'extra2@acme.test',
      is_active: true,
    })
    const at = { branch: 'Portland', department: 'Testing' } as const
    const a = await holder(25, { ...at, name: 'Thirty' })
    const b = await holder(12, { ...at, name: 'Fourteen' })
    const c = await holder(5, { ...at, name: 'Seven' })
    const d = await holder(-1, { ...at, name: 'Expired' })
    const far = await holder(45, at)
    // The 7-day technician has paused their notifications.
    await h.call('POST', '/technician/pause-notifications', { token: c.tech.token, body: { userId: c.tech.id } })
    const ids = [a, b, c, d, far].map((x) => x.tech.id)

    const run = await trigger('daily')
    expect(run.status).toBe(200)
    expect(TriggerResponse.parse(run.body).message).toBe('Daily notification check triggered successfully')

    const events = await expiryEvents(ids)
    const byUser = new Map(events.map((e) => [e.data.technician.userId, e]))
    expect(events).toHaveLength(4)
    expect(byUser.has(far.tech.id)).toBe(false)
    expect(byUser.get(a.tech.id)).toMatchObject({
      type: 'certs.certification.expiring.v1',
      data: { band: 30, notices: [{ notificationType: '30_day', to: [a.tech.actor.email] }] },
    })
    expect(byUser.get(b.tech.id)!.data).toMatchObject({ band: 14, certification: { daysLeft: 12, code: b.type.code }, notices: [{ notificationType: '14_day' }] })
    // Found first inside the 7-day band: only that band's notice; paused, so only the manager's escalation, with its link.
    const seven = byUser.get(c.tech.id)!.data
    expect(seven.band).toBe(7)
    expect(seven.notices).toEqual([
      {
        noticeId: expect.any(String),
        notificationType: 'manager_escalation',
        to: ['manager@acme.test'],
        acknowledgeUrl: expect.stringMatching(/^http:\/\/portal\.test\/api\/certification-notifications\/acknowledge\?token=/),
      },
    ])
    expect(seven.technician).toMatchObject({ profileUrl: 'http://portal.test/technician/profile', teamProfileUrl: `http://portal.test/manager/technician/${c.tech.id}` })
    expect(byUser.get(d.tech.id)).toMatchObject({
      type: 'certs.certification.expired.v1',
      data: {
        band: 0,
        notices: [
          { notificationType: 'expired', to: [d.tech.actor.email] },
          { notificationType: 'ops_escalation', to: ['ops@acme.test', 'extra1@acme.test', 'extra2@acme.test'] },
        ],
      },
    })

    const logs = await logsOf(ids)
    expect(logs.map((l) => [l.technician!.name, l.notification_type, l.status]).sort()).toEqual(
      [
        ['Thirty', '30_day', 'queued'],
        ['Fourteen', '14_day', 'queued'],
        ['Seven', '7_day', 'paused'],
        ['Seven', 'manager_escalation', 'queued'],
        ['Expired', 'expired', 'queued'],
        ['Expired', 'ops_escalation', 'queued'],
      ].sort(),
    )
    expect(logs.find((l) => l.notification_type === 'ops_escalation')).toMatchObject({
      recipient_emails: ['ops@acme.test', 'extra1@acme.test', 'extra2@acme.test'],
      certification: { code: d.type.code },
      technician: { branch: 'Portland', department: 'Testing' },
      days_until_expiry: -1,
    })

    // Second run: nothing new.
    const again = await trigger('daily')
    expect(again.status).toBe(200)
    expect(await expiryEvents(ids)).toHaveLength(4)
    expect(await logsOf(ids)).toHaveLength(6)

    // Twelve days later the 30-day one is inside the 14-day band: its 14-day notice only, once.
    h.advance(12 * DAY)
    try {
      await trigger('daily')
      await trigger('daily')
      const later = (await expiryEvents([a.tech.id])).map((e) => e.data.band)
      expect(later).toEqual([30, 14])
    } finally {
      h.advance(-12 * DAY)
    }
  })

  it('on the expiration date itself sends the 7-day notice and escalation; the expired notice and operations escalation the day after (admin §9 "expired below 0")', async () => {
    await configure('Seattle', 'Construction', {
      manager_email: 'lead@acme.test',
      operations_manager_email: 'ops.sc@acme.test',
      additional_email_1: 'extra.sc@acme.test',
      additional_email_2: null,
      is_active: true,
    })
    const x = await holder(0, { branch: 'Seattle', department: 'Construction', name: 'Today' })
    await trigger('daily')
    const [onTheDay] = await expiryEvents([x.tech.id])
    expect(onTheDay).toMatchObject({
      type: 'certs.certification.expiring.v1',
      data: {
        band: 7,
        certification: { daysLeft: 0 },
        notices: [
          { notificationType: '7_day', to: [x.tech.actor.email] },
          { notificationType: 'manager_escalation', to: ['lead@acme.test'] },
        ],
      },
    })
    h.advance(DAY)
    try {
      await trigger('daily')
      await trigger('daily')
      const events = await expiryEvents([x.tech.id])
      expect(events.map((e) => [e.type, e.data.band, e.data.certification.daysLeft])).toEqual([
        ['certs.certification.expiring.v1', 7, 0],
        ['certs.certification.expired.v1', 0, -1],
      ])
      expect(events[1]!.data.notices.map((n: { notificationType: string; to: string[] }) => [n.notificationType, n.to])).toEqual([
        ['expired', [x.tech.actor.email]],
        ['ops_escalation', ['ops.sc@acme.test', 'extra.sc@acme.test']],
      ])
    } finally {
      h.advance(-DAY)
    }
  })

  it('a renewed certification (new expiry date) starts its bands afresh', async () => {
    const x = await holder(20, { branch: 'Seattle', department: 'Service' })
    await trigger('daily')
    await h.call('PUT', `/technician/certifications/${x.certId}`, {
      token: x.tech.token,
      body: { certification_number: 'N-1', obtained_date: daysFromToday(-5), expiration_date: daysFromToday(28) },
    })
    await trigger('daily')
    expect((await expiryEvents([x.tech.id])).map((e) => [e.data.band, e.data.certification.expirationDate])).toEqual([
      [30, daysFromToday(20)],
      [30, daysFromToday(28)],
    ])
  })

  it('records delivery outcomes from svc-notify in the log', async () => {
    const x = await holder(3, { branch: 'Portland', department: 'Testing' })
    await trigger('daily')
    const [event] = await expiryEvents([x.tech.id])
    const [own, manager] = event!.data.notices as { noticeId: string }[]
    const outcome = (type: 'notify.email.sent.v1' | 'notify.email.failed.v1', noticeId: string, error: string | null) =>
      h.bus.publish({
        id: crypto.randomUUID(),
        type,
        occurredAt: new Date().toISOString(),
        data: { noticeId, to: ['x@acme.test'], template: 'certification-notice', attempts: 1, at: new Date().toISOString(), error },
      })
    await outcome('notify.email.sent.v1', own!.noticeId, null)
    await outcome('notify.email.failed.v1', manager!.noticeId, 'mailbox unavailable')
    const logs = await logsOf([x.tech.id])
    expect(logs.find((l) => l.notification_type === '7_day')).toMatchObject({ status: 'sent', delivered_at: expect.any(String) })
    expect(logs.find((l) => l.notification_type === 'manager_escalation')).toMatchObject({ status: 'failed', error: 'mailbox unavailable' })
  })
})

describe('a run stopped midway', () => {
  it('the next run sends what is left, and nothing twice', async () => {
    let failAt: number | null = 2
    const h2 = await createHarness({
      runs: {
        batchSize: 2,
        afterBatch: (batch) => {
          if (batch === failAt) {
            failAt = null
            throw new Error('svc-certs stopped')
          }
        },
      },
    })
    try {
      const adm = await h2.user({ admin: true, branch: null, department: null })
      const type = await h2.type(adm, { validity_period: 12 })
      const today = Date.parse(`${todayIso(h2.now())}T00:00:00Z`)
      for (let i = 0; i < 7; i++) {
        const t = await h2.user()
        const exp = new Date(today + (i * 4 - 2) * DAY).toISOString().slice(0, 10)
        await h2.call('POST', '/technician/certifications/add', {
          token: t.token,
          body: { certification_id: type.id, certification_number: `C${i}`, obtained_date: '2024-01-01', expiration_date: exp },
        })
      }
      const first = await h2.call('POST', '/certification-notifications/trigger/daily', { token: adm.token })
      expect(first.status).toBe(500)
      const partial = (await h2.events()).filter((e) => e.type.startsWith('certs.certification.exp')).length
      expect(partial).toBe(4)
      expect((await h2.call('POST', '/certification-notifications/trigger/daily', { token: adm.token })).status).toBe(200)
      const all = (await h2.events()).filter((e) => e.type.startsWith('certs.certification.exp'))
      expect(all).toHaveLength(7)
      expect(new Set(all.map((e) => e.data.certification.userCertificationId)).size).toBe(7)
    } finally {
      await h2.close()
    }
  })
})

describe('dashboard, stats, forecast', () => {
  it('groups by days to expiry with days_until_expiry, honours days and include_expired, and shows compliance', async () => {
    const at = { branch: 'Anchorage', department: 'Construction' } as const
    const items = await Promise.all([holder(-3, at), holder(8, at), holder(22, at), holder(50, at), holder(80, at)])
    const get = async (q: string) => {
      const res = await h.call('GET', `/certification-notifications/dashboard${q}`, { token: admin.token })
      expect(res.status).toBe(200)
      return CertificationDashboard.parse(res.body)
    }
    const mine = (d: CertificationDashboard, g: 'expired' | 'critical' | 'warning' | 'notice') =>
      d[g].filter((i) => items.some((x) => x.certId === i.technician_certification_id)).map((i) => i.days_until_expiry)
    const all = await get('')
    expect([mine(all, 'expired'), mine(all, 'critical'), mine(all, 'warning'), mine(all, 'notice')]).toEqual([[-3], [8], [22], [50]])
    const short = await get('?days=10&include_expired=false')
    expect([mine(short, 'expired'), mine(short, 'critical'), mine(short, 'warning'), mine(short, 'notice')]).toEqual([[], [8], [], []])
    const anchorage = all.compliance.branches.find((b) => b.branch === 'Anchorage')!
    expect(anchorage).toMatchObject({ technicians: 5, compliant: 4, non_compliant: 1, percentage: 80 })
    expect((await h.call('GET', '/certification-notifications/dashboard?days=0', { token: admin.token })).status).toBe(400)

    // The screen asks for the first items of each group: the soonest, with the totals as counts.
    await holder(-9, at)
    const limited = await get('?limit=1')
    for (const g of ['expired', 'critical', 'warning', 'notice'] as const) {
      expect(limited[g].length, g).toBeLessThanOrEqual(1)
      expect(limited[g]).toEqual(all[g].length === 0 ? [] : [expect.objectContaining({ days_until_expiry: expect.any(Number) })])
    }
    const whole = await get('')
    expect(limited.counts).toEqual(whole.counts)
    expect(limited.expired[0]!.days_until_expiry).toBe(Math.min(...whole.expired.map((i) => i.days_until_expiry)))
    expect(limited.compliance).toEqual(whole.compliance)
    // Each filter counts the same with a limit as without, and lists the same first items.
    for (const q of ['days=10&include_expired=false', 'branch=Anchorage', 'days=25']) {
      const [some, every] = [await get(`?${q}&limit=2`), await get(`?${q}`)]
      expect([q, some.counts]).toEqual([q, every.counts])
      for (const g of ['expired', 'critical', 'warning', 'notice'] as const) expect([q, g, some[g]]).toEqual([q, g, every[g].slice(0, 2)])
    }
    const bad = await h.call('GET', '/certification-notifications/dashboard?limit=0', { token: admin.token })
    expect([bad.status, bad.body.message]).toEqual([400, 'limit must be a whole number from 1 to 10000'])
  })

  it('counts each group from the kept figures as from the certifications themselves, on every band’s edge', async () => {
    // A certification on each side of every band's edge (expired, 10, 30, 60 days) and past the window.
    const at = { branch: 'Anchorage', department: 'Testing' } as const
    for (const days of [-1, 0, 1, 10, 11, 29, 30, 31, 59, 60, 61, 90]) await holder(days, at)
    const get = async (q: string) => {
      const res = await h.call('GET', `/certification-notifications/dashboard?${q}`, { token: admin.token })
      expect(res.status).toBe(200)
      return CertificationDashboard.parse(res.body)
    }
    // With a limit and a window that holds every group whole, the counts are the kept figures';
    // without a limit, the lists' lengths; they agree, for every filter the screen can ask.
    for (const q of ['days=60', 'days=90', 'days=365', 'include_expired=false', 'branch=Anchorage', 'branch=Anchorage&include_expired=false&days=61', 'days=59', 'days=30']) {
      const [some, every] = [await get(`${q}&limit=1`), await get(q)]
      expect([q, some.counts]).toEqual([q, { expired: every.expired.length, critical: every.critical.length, warning: every.warning.length, notice: every.notice.length }])
      expect([q, some.compliance]).toEqual([q, every.compliance])
    }
    // The next day every edge moves by one: the kept figures follow (their rows are stale then).
    h.advance(DAY)
    const [some, every] = [await get('limit=1'), await get('')]
    expect(some.counts).toEqual({ expired: every.expired.length, critical: every.critical.length, warning: every.warning.length, notice: every.notice.length })
    h.advance(-DAY)
    const check = await h.call('GET', '/admin/certifications/consistency', { token: admin.token })
    expect([check.status, check.body.consistent, check.body.differences]).toEqual([200, true, []])
  })

  it('counts log entries by type and status, per day and per branch', async () => {
    const res = await h.call('GET', `/certification-notifications/stats?start_date=${daysFromToday(-1)}&end_date=${daysFromToday(0)}`, { token: admin.token })
    expect(res.status).toBe(200)
    const stats = NotificationStats.parse(res.body)
    expect(stats.totals.total).toBeGreaterThan(0)
    expect(stats.days.map((d) => d.date)).toEqual([daysFromToday(0)])
    const portland = stats.branches.find((b) => b.branch === 'Portland')!
    expect(portland.by_type.manager_escalation).toBeGreaterThanOrEqual(2)
    expect(portland.by_status.paused).toBeGreaterThanOrEqual(1)
    expect(stats.totals.total).toBe(Object.values(stats.totals.by_status).reduce((a, b) => a + b, 0))
    const backwards = await h.call('GET', '/certification-notifications/stats?start_date=2026-02-01&end_date=2026-01-01', { token: admin.token })
    expect(backwards.status).toBe(400)
    expect(JSON.stringify(backwards.body)).toContain('The start date must not be after the end date')
  })

  it('forecasts who falls out of compliance within 30, 60 and 90 days per branch', async () => {
    const at = { branch: 'Tri-Cities', department: 'Service' } as const
    await Promise.all([holder(-2, at), holder(20, at), holder(45, at), holder(75, at), holder(200, at)])
    const res = await h.call('GET', '/certification-notifications/forecast', { token: admin.token })
    expect(res.status).toBe(200)
    const tri = ComplianceForecast.parse(res.body).branches.find((b) => b.branch === 'Tri-Cities')!
    expect(tri).toMatchObject({ technicians: 5, compliant_now: 4, percentage_now: 80 })
    expect(tri.horizons.map((x) => [x.days, x.falling_out.length, x.percentage])).toEqual([
      [30, 1, 60],
      [60, 2, 40],
      [90, 3, 20],
    ])
    expect(tri.horizons[0]!.falling_out[0]).toMatchObject({ days_until_expiry: 20 })
  })
})

describe('reminders, acknowledgements, weekly report', () => {
  it('sends one manual reminder, withholds it from a paused technician (409, logged), 404 for an unknown certification', async () => {
    const x = await holder(9, { branch: 'Seattle', department: 'Testing' })
    const res = await h.call('POST', '/certification-notifications/send-reminder', { token: admin.token, body: { technician_certification_id: x.certId } })
    expect(res.status).toBe(200)
    const body = CertReminderResponse.parse(res.body)
    expect(body).toMatchObject({ message: 'Reminder sent', log: { notification_type: 'manual_reminder', status: 'queued', recipient_emails: [x.tech.actor.email] } })
    const [event] = (await h.events('certs.certification.reminder-requested.v1')).filter((e) => e.data.technician.userId === x.tech.id)
    expect(event!.data).toMatchObject({ certification: { userCertificationId: x.certId, daysLeft: 9 }, notice: { notificationType: 'manual_reminder' } })

    await h.call('POST', '/technician/pause-notifications', { token: x.tech.token, body: { userId: x.tech.id } })
    const paused = await h.call('POST', '/certification-notifications/send-reminder', { token: admin.token, body: { technician_certification_id: x.certId } })
    expect(paused.status).toBe(409)
    expect(paused.body.message).toBe('Notifications are paused for this technician')
    expect((await logsOf([x.tech.id])).map((l) => l.status).sort()).toEqual(['paused', 'queued'])

    const missing = await h.call('POST', '/certification-notifications/send-reminder', { token: admin.token, body: { technician_certification_id: 987654 } })
    expect(missing.status).toBe(404)
    expect((await h.call('POST', '/certification-notifications/send-reminder', { token: admin.token, body: {} })).status).toBe(400)
  })

  it('the manager acknowledges an escalation once through the signed link; a tampered or reused link is refused', async () => {
    await configure('Seattle', 'Electricians', { manager_email: 'lead@acme.test', is_active: true })
    const x = await holder(6, { branch: 'Seattle', department: 'Electricians' })
    await trigger('daily')
    const [event] = await expiryEvents([x.tech.id])
    const escalation = event!.data.notices.find((n: { notificationType: string }) => n.notificationType === 'manager_escalation')
    const url = new URL(escalation.acknowledgeUrl)
    const path = url.pathname.replace(/^\/api/, '')
    const token = url.searchParams.get('token')!

    const page = await h.app.request(`${path}?token=${encodeURIComponent(token)}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<button type="submit">Acknowledge</button>')
    // Opening the link acknowledges nothing (mail scanners fetch links).
    expect((await logsOf([x.tech.id])).find((l) => l.notification_type === 'manager_escalation')!.acknowledged_at).toBeNull()

    const tampered = await h.call('POST', path, { body: { token: token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) } })
    expect(tampered.status).toBe(400)
    expect(tampered.body.message).toBe('This acknowledgement link is invalid or has expired')
    const form = await h.app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() })
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('Escalation acknowledged. Thank you.')
    const again = await h.call('POST', path, { body: { token } })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('This escalation has already been acknowledged')
    expect((await logsOf([x.tech.id])).find((l) => l.notification_type === 'manager_escalation')!.acknowledged_at).toEqual(expect.any(String))
  })

  it('the weekly report goes to each active configuration’s manager with its branch and department', async () => {
    const before = (await h.events('certs.compliance.report-compiled.v1')).length
    const res = await trigger('weekly')
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Weekly management report triggered successfully')
    const reports = (await h.events('certs.compliance.report-compiled.v1')).slice(before)
    const active = NotificationConfigsResponse.parse((await h.call('GET', '/certification-notifications/configs', { token: admin.token })).body).configs.filter(
      (c) => c.is_active && c.manager_email,
    )
    expect(reports.map((r) => `${r.data.branch}/${r.data.department}`).sort()).toEqual(active.map((c) => `${c.branch}/${c.department}`).sort())
    const testing = reports.find((r) => r.data.branch === 'Portland' && r.data.department === 'Testing')!.data
    expect(testing.notice.to).toEqual(['manager@acme.test'])
    expect(testing.compliance.technicians).toBeGreaterThanOrEqual(5)
    expect(testing.technicians.some((t: { expired: unknown[] }) => t.expired.length > 0)).toBe(true)
    const logs = NotificationLogsResponse.parse((await h.call('GET', '/certification-notifications/logs?notification_type=weekly_report', { token: admin.token })).body).logs
    expect(logs.length).toBe(reports.length)
  })
})

describe('recertification window', () => {
  it('renewing from 60 days before expiry runs from the old expiry; earlier renewals from the renewal day', async () => {
    const tech = await h.user()
    const type = await h.type(admin, { validity_period: 12 })
    const add = await h.call('POST', '/technician/certifications/add', {
      token: tech.token,
      body: { certification_id: type.id, certification_number: 'R-1', obtained_date: daysFromToday(-340), expiration_date: daysFromToday(25) },
    })
    const id = add.body.certification.id
    const renew = (obtained: string) =>
      h.call('PUT', `/technician/certifications/${id}`, { token: tech.token, body: { certification_number: 'R-1', obtained_date: obtained, expiration_date: null } })
    const inside = await renew(daysFromToday(0))
    expect(inside.status).toBe(200)
    const oldExpiry = daysFromToday(25)
    const expected = `${Number(oldExpiry.slice(0, 4)) + 1}${oldExpiry.slice(4)}`
    expect(inside.body.certification.expiration_date).toBe(expected)

    // Renewed 90 days before its expiry (outside the window): from the renewal day.
    const early = await h.call('POST', '/technician/certifications/add', {
      token: tech.token,
      body: {
        certification_id: (await h.type(admin, { validity_period: 12 })).id,
        certification_number: 'R-2',
        obtained_date: daysFromToday(-300),
        expiration_date: daysFromToday(90),
      },
    })
    const renewed = await h.call('PUT', `/technician/certifications/${early.body.certification.id}`, {
      token: tech.token,
      body: { certification_number: 'R-2', obtained_date: daysFromToday(0), expiration_date: null },
    })
    const todayDate = daysFromToday(0)
    expect(renewed.body.certification.expiration_date).toBe(`${Number(todayDate.slice(0, 4)) + 1}${todayDate.slice(4)}`)
  })
})

describe('runs once across instances and on schedule', () => {
  it('two instances running the daily check at once send each notice once', async () => {
    const other = createNotificationRunner({
      orm: h.orm,
      logger: silentLogger,
      now: h.now,
      base: 'http://portal.test',
      signer: createAckSigner(h.orm),
      schedule: { ...DEFAULT_SCHEDULE, enabled: false, timeZone: 'UTC' },
    })
    try {
      const xs = await Promise.all([holder(2, { branch: 'Tri-Cities', department: 'Testing' }), holder(11, { branch: 'Tri-Cities', department: 'Testing' })])
      const results = await Promise.allSettled([h.runner.trigger('daily'), other.trigger('daily'), h.runner.trigger('daily')])
      for (const r of results) if (r.status === 'rejected') expect((r.reason as { status: number }).status).toBe(409)
      expect(results.some((r) => r.status === 'fulfilled')).toBe(true)
      expect((await expiryEvents(xs.map((x) => x.tech.id))).map((e) => e.data.band).sort()).toEqual([14, 7])
    } finally {
      await other.stop()
    }
  })

  it('a scheduled run that stopped midway (its instance died) goes on at the next start', async () => {
    const runs = await h.sql("insert into notification_runs (kind, trigger, run_date, started_at) values ('daily', 'schedule', ?, now()) returning id", [h.daysFromToday(-1)])
    // Yesterday's unfinished run is left alone; today's is resumed.
    const today = await h.sql("insert into notification_runs (kind, trigger, run_date, started_at) values ('daily', 'schedule', ?, now()) on conflict do nothing returning id", [
      h.daysFromToday(0),
    ])
    const x = await holder(13, { branch: 'Anchorage', department: 'Testing' })
    await h.runner.resumeUnfinished()
    expect((await expiryEvents([x.tech.id])).map((e) => e.data.band)).toEqual([14])
    const state = await h.sql('select id, finished_at from notification_runs where id in (?, ?) order by id', [runs[0]!.id, today[0]!.id])
    expect(state.map((r) => r.finished_at !== null)).toEqual([false, true])
    // Its schedule then finds the day done.
    expect(await h.runner.scheduled('daily')).toBeNull()
    await h.sql('delete from notification_runs where id in (?, ?)', [runs[0]!.id, today[0]!.id])
  })

  it('a scheduled run happens once a day however many instances fire; the schedule follows the configured hour and time zone', async () => {
    expect(() => loadNotifySchedule({ CERT_NOTIFY_TIME_ZONE: 'Mars/Olympus' })).toThrow(/IANA time zone/)
    const schedule = loadNotifySchedule({ CERT_NOTIFY_DAILY_HOUR: '5', CERT_NOTIFY_WEEKLY_DAY: '2', CERT_NOTIFY_WEEKLY_HOUR: '8', CERT_NOTIFY_TIME_ZONE: 'America/Anchorage' })
    const runner = createNotificationRunner({ orm: h.orm, logger: silentLogger, now: h.now, base: 'http://portal.test', signer: createAckSigner(h.orm), schedule })
    // A second instance of the same deployment: the same company time zone, so the same "today"
    // (the harness's own runner counts days in UTC, another day for part of every day).
    const other = createNotificationRunner({ orm: h.orm, logger: silentLogger, now: h.now, base: 'http://portal.test', signer: createAckSigner(h.orm), schedule })
    try {
      const [daily, weekly] = runner.nextRuns().map((d) => new Date(d!))
      const local = (d: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'America/Anchorage', weekday: 'short', hour: 'numeric', hour12: false, minute: '2-digit' }).format(d)
      expect(local(daily!)).toMatch(/ 05:00$/)
      expect(local(weekly!)).toBe('Tue 08:00')
      // Both instances' schedules fire: the day's run happens once; the second finds it done.
      const x = await holder(29, { branch: 'Seattle', department: 'Service' })
      const first = await runner.scheduled('daily')
      expect(first).toMatchObject({ kind: 'daily', finished_at: expect.any(String) })
      expect(await other.scheduled('daily')).toBeNull()
      expect(await runner.scheduled('daily')).toBeNull()
      expect(await expiryEvents([x.tech.id])).toHaveLength(1)
      const runs = await h.sql("select count(*)::int as n from notification_runs where trigger = 'schedule' and kind = 'daily'")
      expect(runs[0]!.n).toBe(1)
    } finally {
      await runner.stop()
      await other.stop()
    }
  })
})
