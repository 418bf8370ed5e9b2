import type { EntityManager } from '@mikro-orm/postgresql'
import type { Actor } from '@portal/server-kit'

/** One admin change: who, what (action on target), when, and the facts that changed. */
export interface AuditEntry {
  id: number
  at: string
  actor_id: string
  actor_name: string
  action: string
  target: string
  details: Record<string, unknown>
}

export const auditRepository = {
  /** Records an admin change in the caller's transaction (it commits with the change). */
  record: (em: EntityManager, actor: Actor, action: string, target: string, details: Record<string, unknown> = {}) =>
    em.execute('insert into audit_log (at, actor_id, actor_name, action, target, details) values (now(), ?, ?, ?, ?, ?::jsonb)', [
      actor.userId,
      actor.name || actor.email,
      action,
      target,
      JSON.stringify(details),
    ]),

  /** The latest changes, newest first, filtered by who, what and when. */
  async list(em: EntityManager, f: { actor?: string; action?: string; from?: Date; to?: Date; limit: number }): Promise<AuditEntry[]> {
    const where: string[] = []
    const params: unknown[] = []
    if (f.actor) {
      where.push("(actor_name ilike ? escape '\\' or actor_id::text = ?)")
      params.push(`%${f.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, f.actor)
    }
    if (f.action) {
      where.push("(action ilike ? escape '\\' or target ilike ? escape '\\')")
      const like = `%${f.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      params.push(like, like)
    }
    if (f.from) {
      where.push('at >= ?')
      params.push(f.from)
    }
    if (f.to) {
      where.push('at <= ?')
      params.push(f.to)
    }
    const rows = (await em.execute(
      `select id, at, actor_id, actor_name, action, target, details from audit_log ${where.length ? `where ${where.join(' and ')}` : ''} order by at desc, id desc limit ?`,
      [...params, f.limit],
    )) as { id: string | number; at: Date; actor_id: string; actor_name: string; action: string; target: string; details: Record<string, unknown> }[]
    return rows.map((r) => ({ ...r, id: Number(r.id), at: new Date(r.at).toISOString() }))
  },
}
