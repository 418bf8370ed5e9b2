export { MailboxEntry } from './mailbox-message.entity.ts'
export { createMailboxRepository } from './mailbox.repository.ts'
export type { MailboxStore } from './mailbox.repository.ts'
export { mailboxRoutes } from './mailbox.routes.ts'
