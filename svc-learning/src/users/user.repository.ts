import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import type { EventData } from '@portal/contracts'
import { UserEntity } from './user.entity.ts'

export type UserFacts = EventData<'identity.user.registered.v1'>

export const userRepository = {
  /**
   * Stores the facts of a registration or update unless the stored ones are as new or newer, or
   * the user was deleted. One statement, so concurrent deliveries for one user serialise on its row.
   * The auth version only rises (an event without one, from before it existed, lowers nothing).
   */
  applyFacts: (em: EntityManager, facts: UserFacts, occurredAt: Date) =>
    em.execute(
      `insert into users (id, name, email, is_admin, is_manager, branch, department, user_group, auth_version, occurred_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (id) do update set
         name = excluded.name, email = excluded.email, is_admin = excluded.is_admin, is_manager = excluded.is_manager,
         branch = excluded.branch, department = excluded.department, user_group = excluded.user_group,
         auth_version = greatest(users.auth_version, excluded.auth_version), occurred_at = excluded.occurred_at
       where users.deleted_at is null and users.occurred_at < excluded.occurred_at`,
      [facts.userId, facts.name, facts.email, facts.isAdmin, facts.isManager, facts.branch, facts.department, facts.userGroup, facts.authVersion ?? 0, occurredAt],
    ),

  /** Marks the user deleted (also before any fact arrived) and forgets their facts; a deletion is final. */
  markDeleted: (em: EntityManager, userId: string, occurredAt: Date) =>
    em.execute(
      `insert into users (id, occurred_at, deleted_at) values (?, ?, ?)
       on conflict (id) do update set
         name = null, email = null, is_admin = false, is_manager = false, branch = null, department = null, user_group = null,
         occurred_at = greatest(users.occurred_at, excluded.occurred_at), deleted_at = coalesce(users.deleted_at, excluded.deleted_at)`,
      [userId, occurredAt, occurredAt],
    ),

  /** What a token check needs of the user: deleted or not, and the auth version; null when unknown. */
  async authState(em: EntityManager, id: string): Promise<{ deleted: boolean; authVersion: number } | null> {
    const rows = (await em.execute('select deleted_at is not null as deleted, auth_version from users where id = ?', [id])) as { deleted: boolean; auth_version: number }[]
    return rows[0] ? { deleted: rows[0].deleted, authVersion: rows[0].auth_version } : null
  },

  /** The user as the projection has them, deleted ones included (`deletedAt` set). */
  findAny: (em: EntityManager, id: string) => em.findOne(UserEntity, { id }),

  /** The user unless unknown or deleted. */
  findExisting: (em: EntityManager, id: string) => em.findOne(UserEntity, { id, deletedAt: null }),

  /**
   * The existing users among `ids`, share-locked until the transaction ends: a deletion handled
   * meanwhile waits, then removes what the transaction wrote for them.
   */
  lockExisting: (em: EntityManager, ids: string[]) =>
    em.find(UserEntity, { id: { $in: ids }, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_READ }),
}
