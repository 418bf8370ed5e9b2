import { z } from 'zod'

/** A message kept by the single-node dev mailbox. */
export const MailboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  sentAt: z.string(),
})
export type MailboxMessage = z.infer<typeof MailboxMessage>

/** The remote registry document the shell reads at run time. */
export const RemoteRegistry = z.object({
  remotes: z.record(z.string(), z.object({ entry: z.string() })),
})
export type RemoteRegistry = z.infer<typeof RemoteRegistry>
