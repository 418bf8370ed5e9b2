import { LRS_FORWARDING_MESSAGES, type LrsForwarding, type LrsForwardingInput, type LrsTestResult } from '@portal/contracts'
import { SecretUnreadable, badRequest, type Logger, type SecretBox } from '@portal/server-kit'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { LearningContext } from '../context.ts'
import { PASSWORD_COLUMN, UNREADABLE_PASSWORD, forwardingRepository, targetOf, type ForwardingRow } from './forwarding.repository.ts'
import { about, describeAnswer } from './lrs-client.ts'

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/** The settings as the API shows them (never the password, only whether one is stored) and the statements waiting. */
const toForwarding = (row: ForwardingRow | null, backlog: { waiting: number; since: Date | null }): LrsForwarding => ({
  endpoint: row?.endpoint ?? '',
  username: row?.username ?? '',
  has_password: Boolean(row?.password),
  enabled: row?.enabled ?? false,
  last_sent_at: iso(row?.last_sent_at ?? null),
  last_error: row?.last_error ?? null,
  last_error_at: iso(row?.last_error_at ?? null),
  updated_at: iso(row?.updated_at ?? null),
  waiting: backlog.waiting,
  oldest_waiting_since: iso(backlog.since),
})

const read = async (em: EntityManager) => toForwarding(await forwardingRepository.settings(em), await forwardingRepository.backlog(em))

/** The admin side of statements out: the external LRS's settings and a connection test. */
export function createXapiOutService(ctx: Pick<LearningContext, 'orm' | 'now' | 'secrets'>, opts: { testTimeoutMs?: number; onSaved?: () => void } = {}) {
  const em = () => ctx.orm.em.fork()
  return {
    /** GET /admin/lrs-forwarding. */
    async get(): Promise<LrsForwarding> {
      return read(em())
    },

    /** PUT /admin/lrs-forwarding: a blank or absent password keeps the stored one. */
    async save(input: LrsForwardingInput): Promise<LrsForwarding> {
      const e = em()
      await forwardingRepository.save(e, {
        endpoint: input.endpoint,
        username: input.username,
        password: input.password ? ctx.secrets.seal(input.password, PASSWORD_COLUMN) : null,
        enabled: input.enabled,
        at: ctx.now(),
      })
      // Turned on: statements queued while it was off go now.
      opts.onSaved?.()
      return read(e)
    },

    /** POST /admin/lrs-forwarding/test: GET {endpoint}/about with the stored credentials. */
    async test(): Promise<LrsTestResult> {
      const row = await forwardingRepository.settings(em())
      if (!row?.endpoint) throw badRequest(LRS_FORWARDING_MESSAGES.noEndpoint, 'no_endpoint')
      let target
      try {
        target = targetOf(row, ctx.secrets)
      } catch (err) {
        if (err instanceof SecretUnreadable) return { ok: false, status: null, message: UNREADABLE_PASSWORD, versions: [] }
        throw err
      }
      const answer = await about(target, opts.testTimeoutMs ?? 10_000)
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

/** At start: the LRS password sealed again when stored plain or under a previous key (decision 0055). */
export async function resealLrsPassword(orm: LearningContext['orm'], secrets: SecretBox, logger: Logger): Promise<void> {
  const outcome = await forwardingRepository.reseal(orm.em.fork(), secrets)
  if (outcome === 'resealed') logger.info('sealed the stored LRS password under the current secrets key')
  if (outcome === 'unreadable') logger.error('the stored LRS password cannot be read with SECRETS_KEY or SECRETS_KEY_PREVIOUS; an admin must enter it again')
}
