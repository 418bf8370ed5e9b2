import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventData } from '@portal/contracts'
import { startNotifyStack, eventually } from '../test-support/index.ts'

describe('Send Reminder: svc-notify e-mails certs.reminder.requested.v1 over NATS JetStream and SMTP', () => {
  let stack: Awaited<ReturnType<typeof startNotifyStack>>

  beforeAll(async () => {
    stack = await startNotifyStack('notify_reminder', { env: { PUBLIC_URL: 'https://portal.example.com/' } })
  })

  afterAll(async () => {
    await stack?.close()
  })

  it('e-mails the technician their open requirements with a link to their profile, once', async () => {
    const to = `tech.${Date.now()}@example.com`
    const data: EventData<'certs.reminder.requested.v1'> = {
      userId: crypto.randomUUID(),
      name: 'Terry Tech',
      email: to,
      requestedByName: 'Pat Manager',
      openRequirements: [
        { name: 'First Aid / CPR / AED', code: 'CPR-AED', tierLevel: 0, reason: 'expired', expirationDate: '2026-01-31', trainingLink: null },
        { name: 'Lockout/Tagout Authorized Employee', code: 'LOTO', tierLevel: 1, reason: 'missing', expirationDate: null, trainingLink: null },
      ],
    }
    const event = { id: crypto.randomUUID(), type: 'certs.reminder.requested.v1', occurredAt: new Date().toISOString(), data }
    await stack.bus.publish(event)
    const [mail] = await eventually(() => stack.smtp.to(to).length > 0 && stack.smtp.to(to))
    expect(mail!.subject).toBe('Reminder: certifications to complete')
    expect(mail!.text).toContain('Hello Terry Tech,')
    expect(mail!.text).toContain('- First Aid / CPR / AED (CPR-AED, New Hire): expired on 2026-01-31')
    expect(mail!.text).toContain('- Lockout/Tagout Authorized Employee (LOTO, Tier 1): not on file yet')
    expect(mail!.html).toContain('href="https://portal.example.com/technician/profile"')
    // The relay publishing it again (a crash before it marked it sent) sends nothing more.
    await stack.bus.publish({ ...event })
    await new Promise((r) => setTimeout(r, 800))
    expect(stack.smtp.to(to)).toHaveLength(1)
  })
})
