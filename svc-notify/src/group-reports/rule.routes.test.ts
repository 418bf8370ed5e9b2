import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOTIFY_MESSAGES, NotificationRulesResponse, TrackingConfig } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let tech: TestUser
let manager: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin' })
  tech = await h.user()
  manager = await h.user({ manager: true })
})
afterAll(async () => {
  await h?.close()
})

const rules = async () => NotificationRulesResponse.parse((await h.call('GET', '/admin/notification-rules', { token: admin.token })).body)
const ruleOf = async (group: string) => (await rules()).find((r) => r.user_group === group)!
const putRule = (id: number, body: unknown) => h.call('PUT', `/admin/notification-rules/${id}`, { token: admin.token, body })
const trackingPath = (group: string) => `/email-reports/groups/${encodeURIComponent(group)}/tracking`
const track = (group: string, body: unknown) => h.call('PUT', trackingPath(group), { token: admin.token, body })
const sendReport = (group: string) => h.call('POST', `/email-reports/groups/${encodeURIComponent(group)}/send-report`, { token: admin.token, body: { reportType: 'test' } })
const exam = (userId: string, examId: number, score: number, passed = score >= 70) =>
  h.learningEvent('learning.exam.submitted.v1', { userId, examId, examName: `Exam ${examId}`, attemptId: crypto.randomUUID(), attemptNumber: 1, score, passed })

describe('notification rules (admin §3, §4, §7)', () => {
  it('makes a rule for each group identity announces: weekly on Monday, active, no recipients, nothing tracked', async () => {
    const id = await h.group('Seattle Crew')
    expect(await ruleOf('Seattle Crew')).toEqual({
      id,
      user_group: 'Seattle Crew',
      notification_type: 'group_report',
      is_active: true,
      recipient_emails: [],
      report_frequency: 'weekly',
      report_day_of_week: 1,
      last_report_sent: null,
      trackingItems: [],
    })
  })

  it('toggles active and edits recipients (trimmed, lower-cased, without repeats); refuses bad input', async () => {
    const id = await h.group('Toggle Crew')
    expect(await putRule(id, { is_active: false })).toMatchObject({ status: 200, body: { is_active: false } })
    const edited = await putRule(id, { recipient_emails: [' Lead@Acme.test', 'lead@acme.test', 'ops@acme.test', ''] })
    expect(edited).toMatchObject({ status: 200, body: { is_active: false, recipient_emails: ['lead@acme.test', 'ops@acme.test'] } })
    expect(await putRule(id, { recipient_emails: ['nope'] })).toMatchObject({ status: 400, body: { message: NOTIFY_MESSAGES.recipientInvalid('nope') } })
    expect(await putRule(id, {})).toMatchObject({ status: 400 })
    expect(await putRule(999999, { is_active: true })).toMatchObject({ status: 404, body: { code: 'notification_rule_not_found' } })
    expect((await putRule(id, { recipient_emails: [] })).body).toMatchObject({ recipient_emails: [] })
  })

  it('saves tracked exams and courses with the frequency; the day of week only for weekly', async () => {
    const id = await h.group('Track Crew')
    const empty = TrackingConfig.parse((await h.call('GET', trackingPath('Track Crew'), { token: admin.token })).body)
    expect(empty).toMatchObject({ rule: { id }, trackingItems: [] })
    const items = [
      { type: 'exam', id: 5, name: 'Electrical Safety' },
      { type: 'course', id: 9, name: 'Ladder Basics' },
      { type: 'exam', id: 5, name: 'Electrical Safety' },
    ]
    const weekly = await track('Track Crew', { ruleId: id, trackingItems: items, reportFrequency: 'weekly', reportDayOfWeek: 3 })
    expect(weekly.status).toBe(200)
    expect(TrackingConfig.parse(weekly.body)).toMatchObject({ rule: { report_frequency: 'weekly', report_day_of_week: 3 }, trackingItems: [items[0], items[1]] })
    expect((await ruleOf('Track Crew')).trackingItems).toEqual([
      { item_type: 'exam', item_id: 5, exam: { id: 5, name: 'Electrical Safety' }, course: null },
      { item_type: 'course', item_id: 9, exam: null, course: { id: 9, title: 'Ladder Basics' } },
    ])
    const daily = await track('Track Crew', { ruleId: id, trackingItems: [items[1]], reportFrequency: 'daily', reportDayOfWeek: 4 })
    expect(daily.body).toMatchObject({ rule: { report_frequency: 'daily', report_day_of_week: null }, trackingItems: [items[1]] })
    // Weekly without a day takes Monday (§9).
    expect((await track('Track Crew', { ruleId: id, trackingItems: [], reportFrequency: 'weekly' })).body).toMatchObject({ rule: { report_day_of_week: 1 } })
    expect(await track('Track Crew', { ruleId: id, trackingItems: [], reportFrequency: 'hourly' })).toMatchObject({ status: 400 })
    expect(await track('Track Crew', { ruleId: id, trackingItems: [], reportFrequency: 'weekly', reportDayOfWeek: 7 })).toMatchObject({ status: 400 })
    expect(await track('Track Crew', { ruleId: (await ruleOf('Seattle Crew')).id, trackingItems: [], reportFrequency: 'daily' })).toMatchObject({
      status: 400,
      body: { code: 'rule_group_mismatch' },
    })
    expect(await h.call('GET', trackingPath('No Such Crew'), { token: admin.token })).toMatchObject({ status: 404, body: { code: 'group_not_found' } })
  })

  it('records rule changes in the audit trail', async () => {
    const id = await h.group('Audit Crew')
    await putRule(id, { is_active: false })
    await track('Audit Crew', { ruleId: id, trackingItems: [], reportFrequency: 'monthly' })
    const rows = await h.sql("select actor_name, action from audit_log where target = 'Audit Crew' order by id")
    expect(rows).toEqual([
      { actor_name: 'Ada Admin', action: 'notification_rule.updated' },
      { actor_name: 'Ada Admin', action: 'notification_rule.tracking_saved' },
    ])
  })
})

describe('send test report (admin §7 send-report)', () => {
  it('says at once everything a new group lacks (recipients, tracked items, members), then mails the report to each recipient', async () => {
    const id = await h.group('Report Crew')
    // A new group: nothing is sent, and the answer names all three, in words and as codes.
    expect(await sendReport('Report Crew')).toMatchObject({
      status: 422,
      body: {
        code: 'report_not_ready',
        message:
          'Nothing sent yet: this group has no recipients (add them with Edit Recipients), nothing tracked (choose exams or courses with Configure Tracking) and no members yet (people join it from the Users tab).',
        details: ['recipients', 'tracked_items', 'members'],
      },
    })
    await putRule(id, { recipient_emails: ['report-lead@acme.test', 'report-ops@acme.test'] })
    expect(await sendReport('Report Crew')).toMatchObject({ status: 422, body: { code: 'report_not_ready', details: ['tracked_items', 'members'] } })
    const grace = await h.user({ name: 'Grace Hopper', group: 'Report Crew' })
    await h.user({ name: 'Alan Turing', group: 'Report Crew' })
    expect(await sendReport('Report Crew')).toMatchObject({
      status: 422,
      body: { code: 'report_not_ready', message: NOTIFY_MESSAGES.reportNotReady(['tracked_items']), details: ['tracked_items'] },
    })
    await track('Report Crew', {
      ruleId: id,
      trackingItems: [
        { type: 'exam', id: 41, name: 'Exam 41' },
        { type: 'course', id: 42, name: 'Arc Flash' },
      ],
      reportFrequency: 'weekly',
      reportDayOfWeek: 1,
    })
    await exam(grace.id, 41, 60)
    await exam(grace.id, 41, 88)
    await h.learningEvent('learning.course.progressed.v1', { userId: grace.id, courseId: 42, courseTitle: 'Arc Flash', progress: 50, at: new Date().toISOString() })
    const sent = await sendReport('Report Crew')
    expect(sent).toMatchObject({ status: 200, body: { message: 'Test report sent successfully!', recipients: ['report-lead@acme.test', 'report-ops@acme.test'] } })
    const [mail] = await h.queuedTo('report-ops@acme.test')
    expect(mail!.subject).toMatch(/^Test report: Report Crew – /)
    expect(mail!.text).toContain('2 members; exams passed: 1 of 2; courses completed: 0 of 2')
    expect(mail!.text).toContain('Grace Hopper')
    expect(mail!.text).toContain('  Exam Exam 41: Passed, attempts 2, best score 88%')
    expect(mail!.text).toContain('  Course Arc Flash: 50% complete')
    expect(mail!.text).toContain('Alan Turing')
    expect(mail!.text).toContain('  Exam Exam 41: Not taken, attempts 0, best score —')
    expect(mail!.text).toContain('  Course Arc Flash: Not started')
    expect(mail!.html).toContain('Grace Hopper')
    expect(await h.queuedTo('report-lead@acme.test')).toHaveLength(1)
  })
})

describe('immediate rules', () => {
  it('mail the recipients on each tracked event of a member, and on nothing else', async () => {
    const id = await h.group('Now Crew')
    await h.group('Other Crew')
    await putRule(id, { recipient_emails: ['now-lead@acme.test'] })
    await track('Now Crew', {
      ruleId: id,
      trackingItems: [
        { type: 'exam', id: 51, name: 'Exam 51' },
        { type: 'course', id: 52, name: 'Course 52' },
      ],
      reportFrequency: 'immediate',
    })
    const member = await h.user({ name: 'Katherine Johnson', group: 'Now Crew' })
    const outsider = await h.user({ name: 'Out Sider', group: 'Other Crew' })
    await exam(member.id, 51, 91)
    await exam(member.id, 59, 91) // not tracked
    await exam(outsider.id, 51, 91) // not a member
    await h.learningEvent('learning.course.completed.v1', { userId: member.id, courseId: 52, courseTitle: 'Course 52', completedAt: new Date().toISOString() })
    const mails = await h.queuedTo('now-lead@acme.test')
    expect(mails.map((m) => m.subject)).toEqual(['Exam completed: Katherine Johnson – Exam 51 (Passed)', 'Course completed: Katherine Johnson – Course 52'])
    expect(mails.every((m) => m.kind === 'group-immediate')).toBe(true)
    // An inactive rule mails nobody.
    await putRule(id, { is_active: false })
    await exam(member.id, 51, 50)
    expect(await h.queuedTo('now-lead@acme.test')).toHaveLength(2)
  })
})

describe('scheduled reports', () => {
  it('send a weekly report once at its slot with members and tracked items; an empty one is not sent', async () => {
    const id = await h.group('Weekly Crew')
    const emptyId = await h.group('Empty Crew')
    await putRule(id, { recipient_emails: ['weekly-lead@acme.test'] })
    await putRule(emptyId, { recipient_emails: ['empty-lead@acme.test'] })
    await track('Weekly Crew', { ruleId: id, trackingItems: [{ type: 'course', id: 61, name: 'Forklifts' }], reportFrequency: 'weekly', reportDayOfWeek: 3 })
    await track('Empty Crew', { ruleId: emptyId, trackingItems: [{ type: 'course', id: 61, name: 'Forklifts' }], reportFrequency: 'weekly', reportDayOfWeek: 3 })
    const member = await h.user({ name: 'Mary Jackson', group: 'Weekly Crew' })
    await h.learningEvent('learning.course.completed.v1', { userId: member.id, courseId: 61, courseTitle: 'Forklifts', completedAt: '2026-11-20T09:00:00.000Z' })
    // The rules were made now: the next Wednesday 07:00 UTC is their first slot.
    const nextWednesday = (() => {
      const d = new Date()
      d.setUTCHours(7, 0, 0, 0)
      d.setUTCDate(d.getUTCDate() + ((3 - d.getUTCDay() + 7) % 7 || 7))
      return d
    })()
    expect(await h.rules.runDue(new Date(nextWednesday.getTime() - 60_000))).not.toContain('Weekly Crew')
    expect(await h.queuedTo('weekly-lead@acme.test')).toHaveLength(0)
    const sent = await h.rules.runDue(new Date(nextWednesday.getTime() + 60_000))
    expect(sent).toContain('Weekly Crew')
    expect(sent).not.toContain('Empty Crew')
    const [mail] = await h.queuedTo('weekly-lead@acme.test')
    expect(mail!.subject).toMatch(/^Weekly report: Weekly Crew – /)
    expect(mail!.text).toContain('Mary Jackson')
    expect(mail!.text).toContain('  Course Forklifts: Completed (completed on November 20, 2026)')
    expect(await h.queuedTo('empty-lead@acme.test')).toHaveLength(0)
    // The slot is handled: a second run (another instance, a minute later) sends nothing.
    expect(await h.rules.runDue(new Date(nextWednesday.getTime() + 120_000))).toEqual([])
    expect(await h.queuedTo('weekly-lead@acme.test')).toHaveLength(1)
    expect((await ruleOf('Weekly Crew')).last_report_sent).not.toBeNull()
    expect((await ruleOf('Empty Crew')).last_report_sent).toBeNull()
  })
})

describe('admin only', () => {
  it('answers 401 without a token and 403 to a manager or a technician on every call', async () => {
    const id = await h.group('Matrix Crew')
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/notification-rules'],
      ['PUT', `/admin/notification-rules/${id}`, { is_active: false }],
      ['GET', trackingPath('Matrix Crew')],
      ['PUT', trackingPath('Matrix Crew'), { ruleId: id, trackingItems: [], reportFrequency: 'daily' }],
      ['POST', '/email-reports/groups/Matrix%20Crew/send-report', { reportType: 'test' }],
    ]
    for (const [method, path, body] of calls) {
      expect((await h.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      expect((await h.call(method, path, { token: manager.token, body })).status, `${method} ${path} manager`).toBe(403)
      expect((await h.call(method, path, { token: tech.token, body })).status, `${method} ${path} technician`).toBe(403)
    }
    expect(await ruleOf('Matrix Crew')).toMatchObject({ is_active: true, report_frequency: 'weekly' })
  })
})
