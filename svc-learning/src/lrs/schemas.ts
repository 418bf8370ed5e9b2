import { z } from 'zod'

// The query strings of the xAPI 1.0.3 resources. The wire format is the xAPI spec's, not a portal
// contract the front ends share, so these live beside the LRS rather than in @portal/contracts.

const bool = z.enum(['true', 'false']).transform((v) => v === 'true')
const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' })
/** Any 8-4-4-4-12 hex id (xAPI does not restrict the uuid version). */
const uuid = z.guid({ error: 'must be a UUID' })
const iri = z.string().min(1).max(2048)
/** An agent, as the JSON text the query string carries. */
const agentText = z.string().min(2).max(4096)

export const StatementsQuery = z.strictObject({
  statementId: uuid.optional(),
  voidedStatementId: uuid.optional(),
  agent: agentText.optional(),
  verb: iri.optional(),
  activity: iri.optional(),
  registration: uuid.optional(),
  since: timestamp.optional(),
  until: timestamp.optional(),
  limit: z.coerce.number().int().min(0).optional(),
  ascending: bool.optional(),
  related_activities: bool.optional(),
  related_agents: bool.optional(),
  format: z.enum(['exact', 'ids', 'canonical']).optional(),
  attachments: bool.optional(),
  /** The LRS's own paging cursor (in `more` URLs): the last `seq` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a cursor from a more URL')
    .optional(),
})
export type StatementsQuery = z.infer<typeof StatementsQuery>

export const StatementIdQuery = z.strictObject({ statementId: uuid })

export const StateQuery = z.strictObject({
  activityId: iri,
  agent: agentText,
  registration: uuid.optional(),
  stateId: z.string().min(1).max(1024).optional(),
  since: timestamp.optional(),
})
export const ActivityProfileQuery = z.strictObject({
  activityId: iri,
  profileId: z.string().min(1).max(1024).optional(),
  since: timestamp.optional(),
})
export const AgentProfileQuery = z.strictObject({
  agent: agentText,
  profileId: z.string().min(1).max(1024).optional(),
  since: timestamp.optional(),
})

const account = z.strictObject({ homePage: z.url(), name: z.string().min(1) })
/** An agent parameter: exactly one identifier. */
export const AgentParam = z
  .strictObject({
    objectType: z.enum(['Agent', 'Group']).optional(),
    name: z.string().optional(),
    mbox: z
      .string()
      .regex(/^mailto:[^@\s]+@[^@\s]+$/, 'mbox must be a mailto: IRI')
      .optional(),
    mbox_sha1sum: z
      .string()
      .regex(/^[0-9a-fA-F]{40}$/)
      .optional(),
    openid: z.url().optional(),
    account: account.optional(),
  })
  .refine(
    (a) => [a.mbox, a.mbox_sha1sum, a.openid, a.account].filter((v) => v !== undefined).length === 1,
    'an agent needs exactly one identifier (mbox, mbox_sha1sum, openid or account)',
  )
