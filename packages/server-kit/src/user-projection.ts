import { LockMode, defineEntity, p, type EntityManager, type InferEntity, type MikroORM } from '@mikro-orm/postgresql'
import { Migration } from '@mikro-orm/migrations'
import { Events, type Branch, type Department, type EventData, type EventEnvelope, type ManagerScope } from '@portal/contracts'
import { createTokenCheck, requireSelfOrAdmin, requireUserAccess, type Actor, type TokenCheck, type UserAuthState } from './auth.ts'
import type { EventBus, Subscription } from './bus.ts'
import { notFound } from './errors.ts'
import { handleOnce } from './inbox.ts'
import type { Logger } from './logger.ts'
import { recordEvent } from './outbox.ts'

/**
 * A service's projection of identity's users (DESIGN "Data and events"): the facts it needs to
 * decide who may see what and to show names, without calling identity on the request path. Fed by
 * `identity.user.registered/updated/deleted.v1`: newer facts win (events of one user may arrive
 * out of order), a deletion is final (the row keeps its id only, so a late registration or update
 * cannot bring the user back). A service that starts its projection late asks identity to announce
 * every user again (`identity.users.backfill-requested.v1`), so no identity migration is needed per
 * consumer.
 */
export const ProjectedUser = defineEntity({
  name: 'ProjectedUser',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    name: p.string().nullable(),
    email: p.string().nullable(),
    isAdmin: p.boolean(),
    isManager: p.boolean(),
    managerScope: p.json<ManagerScope>(),
    branch: p.string().$type<Branch>().nullable(),
    department: p.string().$type<Department>().nullable(),
    userGroup: p.string().nullable(),
    employeeId: p.string().nullable(),
    /** `YYYY-MM-DD`. */
    hireDate: p.string().nullable(),
    /** Raised by identity when a token's facts stop being true; a token with a lower `ver` is refused. */
    authVersion: p.integer(),
    /** `occurredAt` of the last event applied. */
    occurredAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
})
export type ProjectedUser = InferEntity<typeof ProjectedUser>

/**
 * The projection's tables. Written so that a service whose `users` table predates the kit's
 * projection (svc-learning's 0005) gets the columns it lacks, and a new service the whole table.
 */
export class UserProjectionTables extends Migration {
  override async up() {
    this.addSql(`create table if not exists users (
      id uuid primary key,
      name text,
      email text,
      is_admin boolean not null default false,
      is_manager boolean not null default false,
      branch text,
      department text,
      user_group text,
      -- occurredAt of the last event applied: an older one must not win
      occurred_at timestamptz not null,
      -- a deleted user keeps an id-only row, so a registration or update delivered late cannot bring them back
      deleted_at timestamptz,
      constraint users_facts check (deleted_at is not null or (name is not null and email is not null)))`)
    this.addSql(`alter table users add column if not exists manager_scope jsonb not null default '{"branches": [], "departments": []}'`)
    this.addSql('alter table users add column if not exists employee_id text')
    this.addSql('alter table users add column if not exists hire_date text')
    this.addSql('alter table users add column if not exists auth_version integer not null default 0')
    // One row per consumer that asked identity to announce every user again.
    this.addSql(`create table if not exists user_projection_backfills (
      consumer text primary key,
      event_id uuid not null,
      requested_at timestamptz not null)`)
  }
}

export type UserFacts = EventData<'identity.user.registered.v1'>

/** The events a projection consumes. */
export const USER_EVENTS = ['identity.user.registered.v1', 'identity.user.updated.v1', 'identity.user.deleted.v1'] as const

type UserChange = { kind: 'facts'; facts: UserFacts } | { kind: 'deleted'; userId: string }

function parseChange(event: EventEnvelope): UserChange | null | undefined {
  if (!(USER_EVENTS as readonly string[]).includes(event.type)) return undefined
  if (event.type === 'identity.user.deleted.v1') {
    const parsed = Events['identity.user.deleted.v1'].safeParse(event.data)
    return parsed.success ? { kind: 'deleted', userId: parsed.data.userId } : null
  }
  // An update carries the same facts as a registration.
  const parsed = Events['identity.user.registered.v1'].safeParse(event.data)
  return parsed.success ? { kind: 'facts', facts: parsed.data } : null
}

/** The projection's queries (any service's `users` table of the kit). */
export const projectedUsers = {
  /**
   * Stores the facts of a registration or update unless the stored ones are as new or newer, or
   * the user was deleted. One statement, so concurrent deliveries for one user serialise on its
   * row. Optional facts an older identity did not send keep what is stored. Resolves with whether
   * the facts were stored.
   */
  applyFacts: async (em: EntityManager, f: UserFacts, occurredAt: Date): Promise<boolean> => {
    const stored = (await em.execute(
      `insert into users (id, name, email, is_admin, is_manager, manager_scope, branch, department, user_group, employee_id, hire_date, auth_version, occurred_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)
       on conflict (id) do update set
         name = excluded.name, email = excluded.email, is_admin = excluded.is_admin, is_manager = excluded.is_manager,
         manager_scope = excluded.manager_scope, branch = excluded.branch, department = excluded.department, user_group = excluded.user_group,
         employee_id = ${f.employeeId === undefined ? 'users.employee_id' : 'excluded.employee_id'},
         hire_date = ${f.hireDate === undefined ? 'users.hire_date' : 'excluded.hire_date'},
         auth_version = greatest(users.auth_version, excluded.auth_version),
         occurred_at = excluded.occurred_at
       where users.deleted_at is null and users.occurred_at < excluded.occurred_at
       returning id`,
      [
        f.userId,
        f.name,
        f.email,
        f.isAdmin,
        f.isManager,
        JSON.stringify(f.managerScope),
        f.branch,
        f.department,
        f.userGroup,
        f.employeeId ?? null,
        f.hireDate ?? null,
        f.authVersion ?? 0,
        occurredAt,
      ],
    )) as unknown[]
    return stored.length > 0
  },

  /** Marks the user deleted (also before any fact arrived) and forgets their facts; a deletion is final. */
  markDeleted: (em: EntityManager, userId: string, occurredAt: Date) =>
    em.execute(
      `insert into users (id, occurred_at, deleted_at) values (?, ?, ?)
       on conflict (id) do update set
         name = null, email = null, is_admin = false, is_manager = false, manager_scope = '{"branches": [], "departments": []}',
         branch = null, department = null, user_group = null, employee_id = null, hire_date = null,
         occurred_at = greatest(users.occurred_at, excluded.occurred_at), deleted_at = coalesce(users.deleted_at, excluded.deleted_at)`,
      [userId, occurredAt, occurredAt],
    ),

  /** The user as the projection has them, deleted ones included (`deletedAt` set). */
  findAny: (em: EntityManager, id: string) => em.findOne(ProjectedUser, { id }),

  /** What a token check needs of the user: deleted or not, and the auth version; null when unknown. */
  async authState(em: EntityManager, id: string): Promise<UserAuthState | null> {
    const rows = (await em.execute('select deleted_at is not null as deleted, auth_version from users where id = ?', [id])) as { deleted: boolean; auth_version: number }[]
    return rows[0] ? { deleted: rows[0].deleted, authVersion: rows[0].auth_version } : null
  },

  /** The user unless unknown or deleted. */
  findExisting: (em: EntityManager, id: string) => em.findOne(ProjectedUser, { id, deletedAt: null }),

  /**
   * The existing users among `ids`, share-locked until the transaction ends: a deletion handled
   * meanwhile waits, then removes what the transaction wrote for them.
   */
  lockExisting: (em: EntityManager, ids: string[]) => em.find(ProjectedUser, { id: { $in: ids }, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_READ }),
}

const userNotFound = () => notFound('User not found', 'user_not_found')

/**
 * Refuses (401 token_stale) the token of a user the projection marks deleted, or whose auth version
 * rose after the token was issued (roles changed, password reset); identity's events bring both.
 */
export const projectionTokenCheck = (orm: MikroORM): TokenCheck => createTokenCheck((id) => projectedUsers.authState(orm.em.fork(), id))

/**
 * The caller as far as manager access goes: a token's manager role counts only while the projection
 * agrees, and with the projection's scope (identity's latest word; a token carries the scope it was
 * signed with). A caller the projection does not know yet keeps the token's. One lookup, for
 * managers only.
 */
export async function withProjectedScope(em: EntityManager, actor: Actor): Promise<Actor> {
  if (!actor.isManager) return actor
  const me = await projectedUsers.findAny(em, actor.userId)
  if (!me) return actor
  return { ...actor, isManager: me.isManager && !me.deletedAt, managerScope: me.managerScope }
}

/**
 * The user whose records `actor` asks for (DESIGN "Security"): technicians only themselves,
 * managers the users their scope covers (their scope and the user's branch and department from
 * the projection), admins
 * everyone; 403 before any lookup for a technician asking for someone else, 404 for a user the
 * projection does not know or knows deleted. Null only for the caller themself before their
 * registration reached the projection (the signed token vouches for its own user).
 */
export async function requireReadableUser(em: EntityManager, actor: Actor, userId: string): Promise<ProjectedUser | null> {
  if (!actor.isAdmin && !actor.isManager) requireSelfOrAdmin(actor, userId)
  const user = await projectedUsers.findAny(em, userId)
  if (user?.deletedAt) throw userNotFound()
  if (actor.userId === userId) return user
  if (!user) throw userNotFound()
  requireUserAccess(actor.isAdmin ? actor : await withProjectedScope(em, actor), { id: user.id, branch: user.branch ?? null, department: user.department ?? null })
  return user
}

export interface UserProjectionOptions {
  orm: MikroORM
  logger: Logger
  /** Durable consumer name and inbox key (e.g. `certs-users`). */
  consumer: string
  /** Extra writes of this service in a deletion's transaction (e.g. dropping the user's assignments). */
  onDeleted?: (em: EntityManager, userId: string) => Promise<void>
  /**
   * Extra writes of this service in the transaction of a registration or update whose facts were
   * stored (not a stale or redelivered one), reading the user's row as it now stands (e.g. giving
   * them the assignments their branch or group has).
   */
  onUpserted?: (em: EntityManager, userId: string) => Promise<void>
}

export type UserProjection = ReturnType<typeof createUserProjection>

/** A service's user projection: its event handler, subscription, backfill request and lookups. */
export function createUserProjection(opts: UserProjectionOptions) {
  const { orm, logger, consumer } = opts

  /** Applies one of identity's user events (at most once per event id). */
  const handle = async (event: EventEnvelope): Promise<void> => {
    const change = parseChange(event)
    if (change === undefined) return
    if (change === null) {
      logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const occurredAt = new Date(event.occurredAt)
    await handleOnce(orm, consumer, event, async (em) => {
      if (change.kind === 'facts') {
        if (await projectedUsers.applyFacts(em, change.facts, occurredAt)) await opts.onUpserted?.(em, change.facts.userId)
        return
      }
      // The mark first: it waits for a transaction under way that share-locked this user.
      await projectedUsers.markDeleted(em, change.userId, occurredAt)
      await opts.onDeleted?.(em, change.userId)
    })
  }

  return {
    consumer,
    handle,
    /** Subscribes durably to identity's user events. */
    subscribe: (bus: EventBus): Promise<Subscription> => bus.subscribe(consumer, [...USER_EVENTS], handle),
    /**
     * Asks identity, once per consumer, to announce every user again (recorded in the outbox with
     * the row that remembers it). Resolves with whether it asked now.
     */
    requestBackfill: (): Promise<boolean> =>
      orm.em.fork().transactional(async (em) => {
        const id = crypto.randomUUID()
        const inserted = (await em.execute(
          'insert into user_projection_backfills (consumer, event_id, requested_at) values (?, ?, now()) on conflict do nothing returning consumer',
          [consumer, id],
        )) as unknown[]
        if (inserted.length === 0) return false
        const event = recordEvent(em, 'identity.users.backfill-requested.v1', { consumer })
        await em.execute('update user_projection_backfills set event_id = ? where consumer = ?', [event.id, consumer])
        logger.info('asked identity to announce every user', { consumer })
        return true
      }),
    /** The user (deleted ones included, `deletedAt` set), or null; e.g. for a token's `ver` check against `authVersion`. */
    find: (userId: string, em: EntityManager = orm.em.fork()) => projectedUsers.findAny(em, userId),
    findExisting: (userId: string, em: EntityManager = orm.em.fork()) => projectedUsers.findExisting(em, userId),
    /** Resolves once `predicate` holds on the projection (e.g. demo seeding waits for its users), or rejects after `timeoutMs`. */
    async waitFor(predicate: (em: EntityManager) => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
      const end = Date.now() + timeoutMs
      while (!(await predicate(orm.em.fork()))) {
        if (Date.now() > end) throw new Error(`${consumer}: the users awaited did not arrive in time`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
  }
}
