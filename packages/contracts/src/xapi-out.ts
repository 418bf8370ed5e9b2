import { z } from 'zod'

/**
 * Statements out (issue 26): an admin may name an external learning record store; the portal's
 * learning events (launched, completed, passed/failed with score) are sent there as xAPI 1.0.3
 * statements through the outbox. Served by svc-learning; paths below are without the gateway's
 * `/api`: `GET/PUT /admin/lrs-forwarding`, `POST /admin/lrs-forwarding/test`.
 */

export const LRS_FORWARDING_LIMITS = { endpoint: 2000, username: 200, password: 500 } as const

export const LRS_FORWARDING_MESSAGES = {
  endpointInvalid: 'Endpoint must be an http:// or https:// address, such as https://lrs.example.com/xapi/',
  endpointRequired: 'An endpoint is required to send statements',
  endpointTooLong: `Endpoint must be at most ${LRS_FORWARDING_LIMITS.endpoint} characters`,
  usernameTooLong: `Username must be at most ${LRS_FORWARDING_LIMITS.username} characters`,
  passwordTooLong: `Password must be at most ${LRS_FORWARDING_LIMITS.password} characters`,
  usernameColon: 'Username cannot contain a colon (":")',
  noEndpoint: 'No endpoint is configured: save one first',
  saved: 'Learning record store settings saved',
} as const

/** An http(s) URL; anything else (another scheme, not a URL at all) is refused with one clear message. */
const HttpUrl = z
  .string()
  .trim()
  .max(LRS_FORWARDING_LIMITS.endpoint, LRS_FORWARDING_MESSAGES.endpointTooLong)
  .refine((v) => {
    try {
      const u = new URL(v)
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== ''
    } catch {
      return false
    }
  }, LRS_FORWARDING_MESSAGES.endpointInvalid)

/**
 * PUT /admin/lrs-forwarding. `password` absent or blank keeps the stored one (the API never
 * returns it); `endpoint` may be blank only while sending is off.
 */
export const LrsForwardingInput = z
  .object({
    endpoint: z.union([z.literal(''), HttpUrl]),
    username: z
      .string()
      .trim()
      .max(LRS_FORWARDING_LIMITS.username, LRS_FORWARDING_MESSAGES.usernameTooLong)
      .refine((v) => !v.includes(':'), LRS_FORWARDING_MESSAGES.usernameColon),
    password: z.string().max(LRS_FORWARDING_LIMITS.password, LRS_FORWARDING_MESSAGES.passwordTooLong).optional(),
    enabled: z.boolean(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.enabled && v.endpoint === '') ctx.addIssue({ code: 'custom', path: ['endpoint'], message: LRS_FORWARDING_MESSAGES.endpointRequired })
  })
export type LrsForwardingInput = z.infer<typeof LrsForwardingInput>

/** GET/PUT /admin/lrs-forwarding: the settings as stored, without the password; what the forwarder last did. */
export const LrsForwarding = z.object({
  endpoint: z.string(),
  username: z.string(),
  has_password: z.boolean(),
  enabled: z.boolean(),
  /** When a statement was last accepted by the LRS. */
  last_sent_at: z.iso.datetime().nullable(),
  /** The last refusal or failure, in words, and when (kept after later statements went through: compare with last_sent_at). */
  last_error: z.string().nullable(),
  last_error_at: z.iso.datetime().nullable(),
  updated_at: z.iso.datetime().nullable(),
  /** Statements waiting to be sent (the LRS down or refusing the credentials, or sending switched off), and since when the oldest has waited. */
  waiting: z.number().int().min(0),
  oldest_waiting_since: z.iso.datetime().nullable(),
})
export type LrsForwarding = z.infer<typeof LrsForwarding>

/** POST /admin/lrs-forwarding/test: whether the LRS's `about` answered with the stored credentials. */
export const LrsTestResult = z.object({
  ok: z.boolean(),
  /** The LRS's HTTP status; null when it could not be reached. */
  status: z.number().int().nullable(),
  message: z.string(),
  /** The xAPI versions the LRS says it speaks (from `about`). */
  versions: z.array(z.string()),
})
export type LrsTestResult = z.infer<typeof LrsTestResult>
