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

/**
 * Where course content plays for the address the portal was opened at (decision 0018): content may
 * be framed only by the portal's own origins, so at any other address the viewer names the one to use.
 */
export const ContentPlacement = z.object({
  /** The content origin for this address of the portal. */
  origin: z.string(),
  /** The addresses the portal may be opened at to play content (PORTAL_ORIGINS), the one to use first. */
  portalOrigins: z.array(z.string()).min(1),
})
export type ContentPlacement = z.infer<typeof ContentPlacement>

/** The remote registry document the shell reads at run time. */
export const RemoteRegistry = z.object({
  remotes: z.record(z.string(), z.object({ entry: z.string() })),
  /** Absent where the gateway has no content origin (a gateway app alone, in tests). */
  content: ContentPlacement.optional(),
})
export type RemoteRegistry = z.infer<typeof RemoteRegistry>
