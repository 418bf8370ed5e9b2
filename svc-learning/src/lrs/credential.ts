import { createHash } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { preparedStatement } from '../sql.ts'
import type { Cmi5SessionCredential } from './types.ts'

/** What `cmi5_sessions.auth_token_hash` holds for an auth-token: SHA-256 of its text as the AU sends it. */
export const authTokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest()

const SESSION_SQL = `select s.session_id, s.registration, s.au_id, r.user_id, r.module_id, r.course_id, s.terminated_at, s.abandoned_at
  from cmi5_sessions s join cmi5_registrations r on r.registration = s.registration
  where s.auth_token_hash = $1`

interface SessionRow {
  session_id: string
  registration: string
  au_id: string
  user_id: string
  module_id: number
  course_id: number
  terminated_at: Date | null
  abandoned_at: Date | null
}

/**
 * The sessions behind auth-tokens, cached for `ttlMs` (every statement of an AU carries the same
 * token: this is the LRS's hot path). A cached session may miss a Terminated or abandonment of
 * the last seconds; the statement insert reads the session's end itself, so nothing slips in.
 * `ended` records an end seen by this instance at once.
 */
export function sessionCredentials(orm: MikroORM, opts: { ttlMs?: number; max?: number } = {}) {
  const ttlMs = opts.ttlMs ?? 5_000
  const max = opts.max ?? 10_000
  const query = preparedStatement<SessionRow>(orm, 'lrs_session_by_token', SESSION_SQL)
  const entries = new Map<string, { value: Cmi5SessionCredential | null; at: number }>()
  return {
    /** The session of `Authorization: Basic <token>`, or null for an unknown (or not yet fetched) token. */
    async lookup(token: string): Promise<Cmi5SessionCredential | null> {
      const hash = authTokenHash(token)
      const key = hash.toString('hex')
      const t = Date.now()
      const hit = entries.get(key)
      if (hit && t - hit.at < ttlMs) return hit.value
      const [row] = await query([hash])
      const value: Cmi5SessionCredential | null = row
        ? {
            sessionId: row.session_id,
            registration: row.registration,
            auId: row.au_id,
            userId: row.user_id,
            moduleId: Number(row.module_id),
            courseId: Number(row.course_id),
            terminatedAt: row.terminated_at ? new Date(row.terminated_at) : null,
            abandonedAt: row.abandoned_at ? new Date(row.abandoned_at) : null,
          }
        : null
      if (entries.size >= max) entries.clear()
      entries.set(key, { value, at: t })
      return value
    },
    /** Marks a session ended in the cache (its Terminated was just stored). */
    ended(token: string, at: Date) {
      const hit = entries.get(authTokenHash(token).toString('hex'))
      if (hit?.value) hit.value = { ...hit.value, terminatedAt: hit.value.terminatedAt ?? at }
    },
  }
}
