import { z } from 'zod'

/** The one error shape every service answers with. */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string(),
  details: z.array(z.unknown()).optional(),
  expired: z.boolean().optional(),
  requiresVerification: z.boolean().optional(),
  userId: z.string().optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>
