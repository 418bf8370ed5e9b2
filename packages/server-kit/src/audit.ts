import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { Migration } from '@mikro-orm/migrations'
import { AuditEntriesResponse, AuditQuery, type AuditEntry } from '@portal/contracts'
import { authenticate, requireAdmin, type Actor, type TokenVerifier } from './auth.ts'
import { validate } from './errors.ts'
import { doc } from './openapi.ts'
import { sqlConditions } from './sql-conditions.ts'
import type { AppEnv } from './http.ts'
import type { z } from 'zod'

/** The audit trail's table: one row per admin change (decision 0030). */
export const AUDIT_TRAIL_SQL = [
  `create table if not exists audit_log (
    id bigserial primary key,
    at timestamptz not null,
    actor_id uuid not null,
    actor_name text not null,
    action text not null,
    target text not null,
    details jsonb not null default '{}')`,
  'create index if not exists audit_log_at on audit_log (at desc)',
]

/** The audit trail's table as a migration of its own (a service lists it under its own number). */
export class AuditTrailTable extends Migration {
  override async up() {
    for (const sql of AUDIT_TRAIL_SQL) this.addSql(sql)
  }
}

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The audit trail's queries (any service's `audit_log`; names come from its `users` table). */
export const auditTrail = {
  /** Records an admin change through `em` (in the change's transaction when there is one). */
  record: (em: EntityManager, actor: Actor, action: string, target: string, details: Record<string, unknown> = {}) =>
    // The name the service's users table knows (tokens may carry none), else the token's.
    em.execute('insert into audit_log (at, actor_id, actor_name, action, target, details) values (now(), ?, coalesce((select name from users where id = ?), ?), ?, ?, ?::jsonb)', [
      actor.userId,
      actor.userId,
      actor.name || actor.email || actor.userId,
      action,
      target,
      JSON.stringify(details),
    ]),

  /** The latest changes, newest first, filtered by who (name or id), what (action or target) and when. */
  async list(em: EntityManager, service: string, f: { actor?: string; action?: string; from?: string; to?: string; limit: number }): Promise<AuditEntry[]> {
    const filter = sqlConditions()
      .when(f.actor, "(actor_name ilike ? escape '\\' or actor_id::text = ?)", likeOf(f.actor ?? ''), f.actor)
      .when(f.action, "(action ilike ? escape '\\' or target ilike ? escape '\\')", likeOf(f.action ?? ''), likeOf(f.action ?? ''))
      .when(f.from, 'at >= ?::timestamptz', f.from)
      // A bare date means the whole day.
      .when(f.to, /^\d{4}-\d{2}-\d{2}$/.test(f.to ?? '') ? "at < ?::date + interval '1 day'" : 'at <= ?::timestamptz', f.to)
    const rows = (await em.execute(`select id, at, actor_id, actor_name, action, target, details from audit_log ${filter.where} order by at desc, id desc limit ?`, [
      ...filter.values,
      f.limit,
    ])) as { id: string | number; at: Date | string; actor_id: string; actor_name: string; action: string; target: string; details: Record<string, unknown> | string }[]
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      service,
      at: new Date(r.at).toISOString(),
      details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
    }))
  },
}

/** `GET /admin/audit/{service}`: the service's audit trail, admins only. */
export const auditTrailRoutes = (orm: MikroORM, service: string, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get(
      '/',
      doc({ summary: "The service's audit trail of admin changes", tags: ['Audit'], roles: 'admins', responses: { 200: AuditEntriesResponse } }),
      validate('query', AuditQuery),
      async (c) => c.json(await auditTrail.list(orm.em.fork(), service, c.req.valid('query'))),
    )

/**
 * An admin change a route makes: method and path, the action's name, and what it changed. `B` is
 * what the service reads of its routes' JSON answers (see `auditAdminChanges`).
 */
export interface AuditedRoute<B = unknown> {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Whole path (without the gateway's `/api`). */
  path: RegExp
  action: string
  /** The target named from the path's match and the JSON answer (e.g. a name or title); null when the answer is not of the shape read. */
  target: (match: RegExpExecArray, body: B | null) => string
  /** Facts worth keeping from the answer. */
  details?: (body: B | null) => Record<string, unknown>
}

/**
 * Records the admin changes of routes whose services do not record them themselves: after a
 * successful answer to an admin's request matching a route, one audit row (its own statement, just
 * after the change committed). `answer` says what the routes read of their JSON answers (an answer
 * of another shape is read as null). A failure to record is logged, never turned into an error answer.
 */
export const auditAdminChanges = <B>(orm: MikroORM, routes: readonly AuditedRoute<B>[], answer: z.ZodType<B>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next()
    if (!c.res.ok) return
    // Who first (a learner's request, the most of them, reads no route pattern), then which route.
    const actor = c.get('actor') as Actor | undefined
    if (!actor?.isAdmin) return
    const route = routes.find((r) => r.method === c.req.method && r.path.test(c.req.path))
    if (!route) return
    try {
      const json: unknown = c.res.headers.get('content-type')?.includes('application/json') ? await c.res.clone().json() : null
      const read = answer.safeParse(json)
      const body = read.success ? read.data : null
      const match = route.path.exec(c.req.path)!
      await auditTrail.record(orm.em.fork(), actor, route.action, route.target(match, body), route.details?.(body) ?? {})
    } catch (err) {
      c.get('logger')?.error('audit record failed', { err: err as Error, action: route.action })
    }
  })
