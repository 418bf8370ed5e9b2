import { Events, type EventEnvelope } from '@portal/contracts'
import type { EventBus, Subscription } from '@portal/server-kit'
import { certificationReminderEmail } from '../mail/index.ts'
import { NOTIFY_CONSUMER, createMailHandler, type MailHandlerDeps, type MailRequest } from './identity.consumer.ts'

export const TEAM_REMINDER_SUBJECTS = ['certs.reminder.requested.v1'] as const

/** Where a technician manages their certifications, on the portal's public address. */
export const profileUrl = (portalUrl: string) => `${portalUrl.replace(/\/+$/, '')}/technician/profile`

/** The mail a certs event asks for (Send Reminder on the member detail), or null. */
const mailFor =
  (portalUrl: string) =>
  (event: EventEnvelope): MailRequest | null => {
    if (event.type !== 'certs.reminder.requested.v1') return null
    const data = Events['certs.reminder.requested.v1'].parse(event.data)
    return { kind: 'certification-reminder', to: data.email, template: () => certificationReminderEmail({ ...data, profileUrl: profileUrl(portalUrl) }) }
  }

/** Handles the team reminders of svc-certs (Send Reminder on the member detail) exactly once; links point at `portalUrl` (PUBLIC_URL). */
export const createTeamReminderMailHandler = (deps: MailHandlerDeps & { portalUrl: string }) => createMailHandler(deps, mailFor(deps.portalUrl))

/** Subscribes the handler durably to the team reminders. */
export function subscribeTeamReminderMail(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(NOTIFY_CONSUMER, [...TEAM_REMINDER_SUBJECTS], handler)
}
