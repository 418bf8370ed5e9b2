import type { EntityManager } from '@mikro-orm/postgresql'

/** A learner's registration of a cmi5 course (module). */
export interface RegistrationRow {
  registration: string
  user_id: string
  course_id: number
  module_id: number
  created_at: Date | string
  satisfied_at: Date | string | null
}

/** One AU's status in a registration. */
export interface AuStatusRow {
  au_id: string
  completed_at: Date | string | null
  passed_at: Date | string | null
  failed_at: Date | string | null
  satisfied_at: Date | string | null
  waived_at: Date | string | null
  waived_reason: string | null
  score: number | null
}

/** A session the abandon sweep or a relaunch ends, with what its Abandoned statement needs. */
export interface OpenSessionRow {
  session_id: string
  registration: string
  au_id: string
  user_id: string
  module_id: number
  created_at: Date | string
  last_statement_at: Date | string | null
}

/** The SQL of cmi5 registrations, sessions and AU statuses (tables of migration 0016). */
export const cmi5Repository = {
  async registrationOf(em: EntityManager, userId: string, moduleId: number): Promise<RegistrationRow | undefined> {
    const [row] = (await em.execute('select * from cmi5_registrations where user_id = ? and module_id = ?', [userId, moduleId])) as RegistrationRow[]
    return row
  },

  /** The learner's registration of the module, made now unless there is one (`created` says which). */
  async registrationFor(em: EntityManager, p: { userId: string; moduleId: number; courseId: number; at: Date }): Promise<{ row: RegistrationRow; created: boolean }> {
    const [made] = (await em.execute(
      `insert into cmi5_registrations (registration, user_id, course_id, module_id, created_at) values (?, ?, ?, ?, ?)
       on conflict (user_id, module_id) do nothing returning *`,
      [crypto.randomUUID(), p.userId, p.courseId, p.moduleId, p.at],
    )) as RegistrationRow[]
    if (made) return { row: made, created: true }
    return { row: (await this.registrationOf(em, p.userId, p.moduleId))!, created: false }
  },

  /** Locks the registration (its AU statuses and Satisfied statements are judged under it). */
  async lockRegistration(em: EntityManager, registration: string): Promise<RegistrationRow | undefined> {
    const [row] = (await em.execute('select * from cmi5_registrations where registration = ? for update', [registration])) as RegistrationRow[]
    return row
  },

  async markRegistrationSatisfied(em: EntityManager, registration: string, at: Date) {
    await em.execute('update cmi5_registrations set satisfied_at = coalesce(satisfied_at, ?) where registration = ?', [at, registration])
  },

  async auStatuses(em: EntityManager, registration: string): Promise<AuStatusRow[]> {
    return (await em.execute('select * from cmi5_au_status where registration = ?', [registration])) as AuStatusRow[]
  },

  /** The AUs launched at least once in the registration. */
  /** The AUs the registration has launched, each with whether a session of it is still open (neither ended nor past its end). */
  async launchedAus(em: EntityManager, registration: string, at: Date): Promise<{ au_id: string; open: boolean }[]> {
    return (await em.execute(
      `select au_id, bool_or(terminated_at is null and abandoned_at is null and expires_at > ?) as open
         from cmi5_sessions where registration = ? group by au_id`,
      [at, registration],
    )) as { au_id: string; open: boolean }[]
  },

  /**
   * Records what an AU reported (the first Completed and Passed count; a later Passed or Failed
   * score replaces the score) and, once, that its moveOn is met.
   */
  async recordAu(
    em: EntityManager,
    p: { registration: string; auId: string; completedAt?: Date | null; passedAt?: Date | null; failedAt?: Date | null; score?: number | null; satisfiedAt?: Date | null },
  ) {
    await em.execute(
      `insert into cmi5_au_status as s (registration, au_id, completed_at, passed_at, failed_at, score, satisfied_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (registration, au_id) do update set
         completed_at = coalesce(s.completed_at, excluded.completed_at),
         passed_at = coalesce(s.passed_at, excluded.passed_at),
         failed_at = coalesce(excluded.failed_at, s.failed_at),
         score = coalesce(excluded.score, s.score),
         satisfied_at = coalesce(s.satisfied_at, excluded.satisfied_at)`,
      [p.registration, p.auId, p.completedAt ?? null, p.passedAt ?? null, p.failedAt ?? null, p.score ?? null, p.satisfiedAt ?? null],
    )
  },

  /** Marks an AU waived unless it already is: false when it was (cmi5 §9.3.7 allows one Waived per AU and registration). */
  async waive(em: EntityManager, p: { registration: string; auId: string; reason: string; at: Date }): Promise<boolean> {
    const rows = (await em.execute(
      `insert into cmi5_au_status as s (registration, au_id, waived_at, waived_reason, satisfied_at) values (?, ?, ?, ?, ?)
       on conflict (registration, au_id) do update set waived_at = excluded.waived_at, waived_reason = excluded.waived_reason,
         satisfied_at = coalesce(s.satisfied_at, excluded.satisfied_at)
       where s.waived_at is null
       returning au_id`,
      [p.registration, p.auId, p.at, p.reason, p.at],
    )) as unknown[]
    return rows.length > 0
  },

  /** A new session of an AU with the hash of its one-time fetch token. */
  async insertSession(em: EntityManager, p: { sessionId: string; registration: string; auId: string; fetchTokenHash: Buffer; at: Date; expiresAt: Date }) {
    await em.execute(`insert into cmi5_sessions (session_id, registration, au_id, launch_mode, fetch_token_hash, created_at, expires_at) values (?, ?, ?, 'Normal', ?, ?, ?)`, [
      p.sessionId,
      p.registration,
      p.auId,
      p.fetchTokenHash,
      p.at,
      p.expiresAt,
    ])
  },

  /** The AU's sessions of the registration that neither terminated nor were abandoned (locked: a relaunch abandons them). */
  async openSessionsOf(em: EntityManager, registration: string, auId: string): Promise<OpenSessionRow[]> {
    return (await em.execute(
      `select s.session_id, s.registration, s.au_id, r.user_id, r.module_id, s.created_at, s.last_statement_at
         from cmi5_sessions s join cmi5_registrations r using (registration)
        where s.registration = ? and s.au_id = ? and s.terminated_at is null and s.abandoned_at is null
        for update of s`,
      [registration, auId],
    )) as OpenSessionRow[]
  },

  /** Sessions past their end without a Terminated statement, not yet abandoned; other instances' picks skipped. */
  async expiredSessions(em: EntityManager, at: Date, limit: number): Promise<OpenSessionRow[]> {
    return (await em.execute(
      `select s.session_id, s.registration, s.au_id, r.user_id, r.module_id, s.created_at, s.last_statement_at
         from cmi5_sessions s join cmi5_registrations r using (registration)
        where s.expires_at <= ? and s.terminated_at is null and s.abandoned_at is null
        order by s.expires_at
        limit ?
        for update of s skip locked`,
      [at, limit],
    )) as OpenSessionRow[]
  },

  async markAbandoned(em: EntityManager, sessionIds: string[], at: Date) {
    if (!sessionIds.length) return
    await em.execute(`update cmi5_sessions set abandoned_at = ? where session_id = any(?::uuid[]) and abandoned_at is null`, [at, `{${sessionIds.join(',')}}`])
  },

  /**
   * Hands out the session's auth-token once (stores its hash): 'issued', or why not — 'used'
   * (already fetched, or the session expired or ended: cmi5 §8.2.3 error 1) or 'unknown' (error 2).
   */
  async fetchAuthToken(em: EntityManager, fetchTokenHash: Buffer, authTokenHash: Buffer, at: Date): Promise<'issued' | 'used' | 'unknown'> {
    const rows = (await em.execute(
      `update cmi5_sessions set fetch_used_at = ?, auth_token_hash = ?
        where fetch_token_hash = ? and fetch_used_at is null and expires_at > ? and terminated_at is null and abandoned_at is null
        returning session_id`,
      [at, authTokenHash, fetchTokenHash, at],
    )) as unknown[]
    if (rows.length) return 'issued'
    const known = (await em.execute('select 1 from cmi5_sessions where fetch_token_hash = ?', [fetchTokenHash])) as unknown[]
    return known.length ? 'used' : 'unknown'
  },

  /** The activity ids the registration's Satisfied statements were about (none is issued twice, cmi5 §9.3.9). */
  async satisfiedActivities(em: EntityManager, registration: string, verbId: string): Promise<Set<string>> {
    const rows = (await em.execute('select activity_id from xapi_statements where registration = ? and verb_id = ? and not voided', [registration, verbId])) as {
      activity_id: string | null
    }[]
    return new Set(rows.map((r) => r.activity_id).filter((id): id is string => id !== null))
  },

  async userName(em: EntityManager, userId: string): Promise<string | null | undefined> {
    const [row] = (await em.execute('select name from users where id = ?', [userId])) as { name: string | null }[]
    return row ? row.name : undefined
  },
}
