import { LRS_FORWARDING_MESSAGES, type LrsForwarding, type LrsForwardingInput, type LrsTestResult } from '@portal/contracts'
import { badRequest } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { forwardingRepository, type ForwardingRow } from './forwarding.repository.ts'
import { about, describeAnswer } from './lrs-client.ts'

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/** The settings as the API shows them: never the password, only whether one is stored. */
const toForwarding = (row: ForwardingRow | null): LrsForwarding => ({
  endpoint: row?.endpoint ?? '',
  username: row?.username ?? '',
  has_password: Boolean(row?.password),
  enabled: row?.enabled ?? false,
  last_sent_at: iso(row?.last_sent_at ?? null),
  last_error: row?.last_error ?? null,
  last_error_at: iso(row?.last_error_at ?? null),
  updated_at: iso(row?.updated_at ?? null),
})

/** The admin side of statements out: the external LRS's settings and a connection test. */
export function createXapiOutService(ctx: Pick<LearningContext, 'orm' | 'now'>, opts: { testTimeoutMs?: number; onSaved?: () => void } = {}) {
  const em = () => ctx.orm.em.fork()
  return {
    /** GET /admin/lrs-forwarding. */
    async get(): Promise<LrsForwarding> {
      return toForwarding(await forwardingRepository.settings(em()))
    },

    /** PUT /admin/lrs-forwarding: a blank or absent password keeps the stored one. */
    async save(input: LrsForwardingInput): Promise<LrsForwarding> {
      const e = em()
      await forwardingRepository.save(e, {
        endpoint: input.endpoint,
        username: input.username,
        password: input.password ? input.password : null,
        enabled: input.enabled,
        at: ctx.now(),
      })
      // Turned on: statements queued while it was off go now.
      opts.onSaved?.()
      return toForwarding(await forwardingRepository.settings(e))
    },

    /** POST /admin/lrs-forwarding/test: GET {endpoint}/about with the stored credentials. */
    async test(): Promise<LrsTestResult> {
      const row = await forwardingRepository.settings(em())
      if (!row?.endpoint) throw badRequest(LRS_FORWARDING_MESSAGES.noEndpoint, 'no_endpoint')
      const answer = await about(row, opts.testTimeoutMs ?? 10_000)
      const ok = answer.status !== null && answer.status >= 200 && answer.status < 300
      const message = ok
        ? `Connected: the LRS answered${answer.versions.length ? ` (xAPI ${answer.versions.join(', ')})` : ''}`
        : answer.status === 401 || answer.status === 403
          ? `The LRS refused the username or password (${answer.status})`
          : describeAnswer(answer)
      return { ok, status: answer.status, message, versions: answer.versions }
    },
  }
}
export type XapiOutService = ReturnType<typeof createXapiOutService>
