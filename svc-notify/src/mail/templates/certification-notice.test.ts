import { describe, expect, it } from 'vitest'
import type { EventData, CertNotificationType } from '@portal/contracts'
import { renderEmail } from '../render.ts'
import { certificationNoticeEmail, weeklyReportEmail, whenText } from './certification-notice.ts'

const technician = {
  userId: '6f1c1f5e-8a39-4a4c-9a55-0d6f3c1c2b11',
  name: 'Pat <Portland>',
  email: 'pat@acme.test',
  branch: 'Portland' as const,
  department: 'Service' as const,
  profileUrl: 'https://portal.acme.test/technician/profile',
  teamProfileUrl: 'https://portal.acme.test/manager/technician/6f1c1f5e-8a39-4a4c-9a55-0d6f3c1c2b11',
}
const certification = (daysLeft: number) => ({
  userCertificationId: 7,
  certificationTypeId: 3,
  code: 'OSHA-10',
  name: 'OSHA 10',
  expirationDate: '2026-12-24',
  daysLeft,
  trainingLink: 'https://training.acme.test/osha',
})
const mail = (type: CertNotificationType, daysLeft: number, acknowledgeUrl?: string) =>
  renderEmail(
    certificationNoticeEmail({
      notice: { noticeId: '0d9d1c8e-2f4b-4a8e-8c1d-5b6f7a8b9c0d', notificationType: type, to: ['x@acme.test'], acknowledgeUrl },
      technician,
      certification: certification(daysLeft),
    }),
  )

describe('certification notice e-mails', () => {
  it('technician notices name the certification, the days left, the technician and link the profile', async () => {
    for (const [type, days, subject] of [
      ['30_day', 30, 'Your OSHA 10 certification expires in 30 days'],
      ['14_day', 14, 'Your OSHA 10 certification expires in 14 days'],
      ['7_day', 1, 'Your OSHA 10 certification expires in 1 day'],
      // The expiration date itself is still in the 7-day band, not expired.
      ['7_day', 0, 'Your OSHA 10 certification expires today'],
      ['expired', -2, 'Your OSHA 10 certification has expired'],
      ['manual_reminder', 12, 'Reminder: your OSHA 10 certification expires in 12 days'],
    ] as const) {
      const m = await mail(type, days)
      expect(m.subject).toBe(subject)
      expect(m.text).toContain('Certification: OSHA 10 (OSHA-10)')
      expect(m.text).toContain(days < 0 ? `Expired: ${-days} days ago` : `Days left: ${days}`)
      if (days < 0) expect(m.text).not.toContain('Days left')
      expect(m.text).toContain('Technician: Pat <Portland>')
      expect(m.text).toContain('Your profile: https://portal.acme.test/technician/profile')
      expect(m.html).toContain('href="https://portal.acme.test/technician/profile"')
      expect(m.html).toContain('Pat &lt;Portland&gt;')
      expect(m.html).not.toContain('Pat <Portland>')
    }
  })

  it('the manager escalation links the team profile and the acknowledgement; operations are told on expiry', async () => {
    const ack = 'https://portal.acme.test/api/certification-notifications/acknowledge?token=a.b.c'
    const m = await mail('manager_escalation', 7, ack)
    expect(m.subject).toBe("Escalation: Pat <Portland>'s OSHA 10 certification expires in 7 days")
    expect(m.html).toContain(`href="${technician.teamProfileUrl}"`)
    expect(m.html).toContain('Acknowledge escalation')
    expect(m.text).toContain(`Acknowledge this escalation: ${ack}`)
    // Operations hear of it once the expiration date has passed (admin §9 "expired below 0").
    const ops = await mail('ops_escalation', -1)
    expect(ops.subject).toBe("Expired: Pat <Portland>'s OSHA 10 certification")
    expect(ops.text).toContain('expired 1 day ago')
    expect(ops.text).toContain('Expired: 1 day ago')
    expect(ops.text).not.toContain('Days left')
    expect(ops.text).not.toContain('Acknowledge')
  })

  it('refuses links that are not http(s)', () => {
    expect(() =>
      certificationNoticeEmail({
        notice: { noticeId: '0d9d1c8e-2f4b-4a8e-8c1d-5b6f7a8b9c0d', notificationType: '7_day', to: ['x@acme.test'] },
        technician: { ...technician, profileUrl: 'javascript:alert(1)' },
        certification: certification(5),
      }),
    ).toThrow(/http/)
  })

  it('reads days as people say them', () => {
    expect([3, 1, 0, -1, -4].map(whenText)).toEqual(['expires in 3 days', 'expires in 1 day', 'expires today', 'expired 1 day ago', 'expired 4 days ago'])
  })
})

describe('weekly management report e-mail', () => {
  const report: EventData<'certs.compliance.report-compiled.v1'> = {
    notice: { noticeId: '0d9d1c8e-2f4b-4a8e-8c1d-5b6f7a8b9c0d', notificationType: 'weekly_report', to: ['boss@acme.test'] },
    branch: 'Seattle',
    department: 'Testing',
    weekOf: '2026-11-23',
    compliance: { technicians: 4, compliant: 3, non_compliant: 1, expired_certifications: 1, expiring_30_days: 2, percentage: 75 },
    dashboardUrl: 'https://portal.acme.test/manager/dashboard',
    technicians: [
      {
        userId: technician.userId,
        name: 'Sam',
        profileUrl: technician.teamProfileUrl,
        expired: [{ code: 'A', name: 'Alpha', expirationDate: '2026-11-20', daysLeft: -5 }],
        expiringSoon: [{ code: 'B', name: 'Beta', expirationDate: '2026-12-10', daysLeft: 15 }],
      },
    ],
  }
  it('gives the branch and department compliance with each technician’s expired and expiring certifications', async () => {
    const m = await renderEmail(weeklyReportEmail(report))
    expect(m.subject).toBe('Weekly certification compliance: Seattle Testing')
    expect(m.text).toContain('Compliance 75%: 3 of 4 technicians without expired certifications; 1 expired certification, 2 expiring within 30 days.')
    expect(m.text).toContain('Alpha (A) expired 5 days ago (2026-11-20)')
    expect(m.text).toContain('Beta (B) expires in 15 days (2026-12-10)')
    expect(m.html).toContain(`href="${technician.teamProfileUrl}"`)
    const empty = await renderEmail(weeklyReportEmail({ ...report, technicians: [] }))
    expect(empty.text).toContain('No certification is expired or expiring within 30 days.')
  })
})
