import { describe, expect, it } from 'vitest'
import { renderEmail } from '../render.ts'
import { passwordResetEmail } from './password-reset.ts'
import { registrationAttemptEmail } from './registration-attempt.ts'
import { verificationEmail } from './verification.ts'
import { courseCompletedEmail, examCompletedEmail } from './admin-completion.ts'
import { groupReportEmail, type GroupReport } from './group-report.ts'
import { certificationReminderEmail } from './certification-reminder.ts'

describe('verification e-mail', () => {
  it('carries the code in the HTML and the text part and says it expires in 15 minutes', async () => {
    const mail = await renderEmail(verificationEmail({ name: 'Ada Lovelace', code: '042917' }))
    expect(mail.subject).toBe('Your verification code')
    expect(mail.html).toContain('042917')
    expect(mail.text).toContain('042917')
    expect(mail.text).toContain('Hello Ada Lovelace,')
    expect(mail.html).toContain('expires in 15 minutes')
    expect(mail.text).toContain('expires in 15 minutes')
    expect(mail.html).toMatch(/^<!doctype html>/i)
  })

  it('escapes the user name in the HTML', async () => {
    const mail = await renderEmail(verificationEmail({ name: '<script>alert("x")</script> & Co', code: '123456' }))
    expect(mail.html).not.toContain('<script>alert')
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co')
    // the text part is not HTML: it keeps the name as typed
    expect(mail.text).toContain('<script>alert("x")</script> & Co')
  })
})

describe('password reset e-mail', () => {
  const resetUrl = 'https://portal.example.com/reset-password?token=abc_DEF-123&x=1'

  it('carries the reset link as a button and as text, and says it expires in 1 hour', async () => {
    const mail = await renderEmail(passwordResetEmail({ name: 'Grace', resetUrl }))
    expect(mail.subject).toBe('Reset your password')
    expect(mail.html).toContain('href="https://portal.example.com/reset-password?token=abc_DEF-123&amp;x=1"')
    expect(mail.text).toContain(resetUrl)
    expect(mail.html).toContain('expires in 1 hour')
    expect(mail.text).toContain('expires in 1 hour')
  })

  it('escapes quotes in the link so it cannot break out of the attribute', async () => {
    const mail = await renderEmail(passwordResetEmail({ name: 'Grace', resetUrl: 'https://x.example/r?t="><img src=x onerror=alert(1)>' }))
    expect(mail.html).not.toContain('<img src=x')
    expect(mail.html).not.toContain('"><img')
  })

  it('refuses a link that is not http(s)', () => {
    expect(() => passwordResetEmail({ name: 'Grace', resetUrl: 'javascript:alert(1)' })).toThrow(/http/)
  })
})

describe('registration attempt e-mail', () => {
  const links = { loginUrl: 'https://portal.example.com/login', resetUrl: 'https://portal.example.com/forgot-password' }

  it('says no account was created and links to log in and to reset the password', async () => {
    const mail = await renderEmail(registrationAttemptEmail({ name: 'Grace', ...links }))
    expect(mail.subject).toBe('Someone tried to register with your e-mail address')
    expect(mail.text).toContain('no new one was created')
    expect(mail.text).toContain(links.loginUrl)
    expect(mail.text).toContain(links.resetUrl)
    expect(mail.html).toContain(`href="${links.loginUrl}"`)
    expect(mail.html).toContain(`href="${links.resetUrl}"`)
  })

  it('escapes the name and refuses links that are not http(s)', async () => {
    const mail = await renderEmail(registrationAttemptEmail({ name: '<b>Eve</b>', ...links }))
    expect(mail.html).not.toContain('<b>Eve')
    expect(() => registrationAttemptEmail({ name: 'Grace', ...links, loginUrl: 'javascript:alert(1)' })).toThrow(/http/)
  })
})

describe('admin completion e-mails', () => {
  it('names learner, exam, score and result, and escapes what users typed', async () => {
    const mail = await renderEmail(
      examCompletedEmail({
        learner: { name: '<b>Eve</b>', email: 'eve@acme.test' },
        examName: 'Safety & "Rules"',
        score: 55.5,
        passed: false,
        attemptNumber: 1,
        submittedAt: '2026-11-20T10:00:00.000Z',
      }),
    )
    expect(mail.subject).toBe('Exam completed: <b>Eve</b> – Safety & "Rules" (Failed)')
    expect(mail.html).not.toContain('<b>Eve</b>')
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt;')
    expect(mail.text).toContain('Score: 55.5%')
    expect(mail.text).toContain('Result: Failed')
    expect(mail.text).toContain('an administrator of the Learning Portal added your address')
  })

  it('gives the completion date of a course', async () => {
    const mail = await renderEmail(courseCompletedEmail({ learner: { name: 'Eve', email: null }, courseTitle: 'Ladders', completedAt: '2026-01-02T23:30:00.000Z' }))
    expect(mail.text).toContain('Eve completed the course "Ladders".')
    expect(mail.text).toContain('Completed on: January 2, 2026')
  })
})

describe('group report e-mail', () => {
  const report: GroupReport = {
    group: '<Crew & Co>',
    members: [
      {
        member: { id: 'u1', name: '<i>Eve</i>', email: 'eve@acme.test' },
        exams: [{ examId: 1, name: 'Safety', attempts: 3, bestScore: 92.5, passed: true }],
        courses: [{ courseId: 2, name: 'Ladders', progress: 100, completedAt: '2026-11-02T10:00:00.000Z' }],
      },
    ],
    totals: { members: 1, examsTracked: 1, coursesTracked: 1, examsPassed: 1, coursesCompleted: 1 },
  }

  it('lists each member’s tracked exams and courses with totals, and escapes names', async () => {
    const mail = await renderEmail(groupReportEmail(report, { frequency: 'monthly', at: new Date('2026-12-01T07:00:00.000Z') }))
    expect(mail.subject).toBe('Monthly report: <Crew & Co> – December 1, 2026')
    expect(mail.text).toContain('1 member; exams passed: 1 of 1; courses completed: 1 of 1')
    expect(mail.text).toContain('  Exam Safety: Passed, attempts 3, best score 92.5%')
    expect(mail.text).toContain('  Course Ladders: Completed (completed on November 2, 2026)')
    expect(mail.html).toContain('&lt;i&gt;Eve&lt;/i&gt;')
    expect(mail.html).toContain('&lt;Crew &amp; Co&gt;')
    expect(mail.html).not.toContain('<i>Eve</i>')
  })
})

describe('certification reminder e-mail', () => {
  const reminder = {
    userId: '0b7c1c56-3f47-4c0f-9d59-8f1d8f1f6a11',
    name: 'Ada <Lovelace>',
    email: 'ada@example.com',
    requestedByName: 'Pat Manager',
    openRequirements: [
      { name: 'First Aid / CPR', code: 'CPR', tierLevel: 0, reason: 'expired' as const, expirationDate: '2026-01-31', trainingLink: 'https://train.example.com/cpr' },
      { name: 'Lockout/Tagout', code: 'LOTO', tierLevel: 1, reason: 'missing' as const, expirationDate: null, trainingLink: 'javascript:alert(1)' },
      { name: 'NFPA 70E', code: 'NFPA', tierLevel: 1, reason: 'not_uploaded' as const, expirationDate: null, trainingLink: null },
    ],
    profileUrl: 'https://portal.example.com/technician/profile',
  }

  it('lists every open requirement with why, in HTML and text, with the profile link', async () => {
    const mail = await renderEmail(certificationReminderEmail(reminder))
    expect(mail.subject).toBe('Reminder: certifications to complete')
    expect(mail.text).toContain('Pat Manager asks you')
    expect(mail.text).toContain('- First Aid / CPR (CPR, New Hire): expired on 2026-01-31 (training: https://train.example.com/cpr)')
    expect(mail.text).toContain('- Lockout/Tagout (LOTO, Tier 1): not on file yet')
    expect(mail.text).toContain('- NFPA 70E (NFPA, Tier 1): proof not uploaded')
    expect(mail.html).toContain('href="https://portal.example.com/technician/profile"')
    expect(mail.html).toContain('Ada &lt;Lovelace&gt;')
    // Only http(s) training links become links.
    expect(mail.html).not.toContain('javascript:')
  })
})
