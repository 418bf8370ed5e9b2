import type { EntityManager } from '@mikro-orm/postgresql'
import type { Branch, Department, ManagerScope, User } from '@portal/contracts'
import { UserEntity } from './user.entity.ts'

/** Row of `users` as the profile read selects it (snake_case columns). */
interface ProfileRow {
  id: string
  name: string
  email: string
  is_admin: boolean
  is_manager: boolean
  manager_scope: ManagerScope | string | null
  branch: Branch | null
  department: Department | null
  user_group: string | null
  employee_id: string | null
  hire_date: string | null
  email_verified: boolean
  created_at: Date | string
}

export const userRepository = {
  /** Locks `users` against other writers until the transaction ends (concurrent first starts seed once). */
  lockForSeeding: (em: EntityManager) => em.execute('lock table users in share row exclusive mode'),

  /**
   * The caller's own profile, read on every page load: one plain query straight into the API
   * shape, without hydrating an entity (the hot path of `GET /users/me`).
   */
  async findProfile(em: EntityManager, id: string): Promise<User | null> {
    const rows = (await em.getConnection().execute(
      `select id, name, email, is_admin, is_manager, manager_scope, branch, department, user_group,
              employee_id, hire_date, email_verified, created_at
         from users where id = ?`,
      [id],
    )) as ProfileRow[]
    const r = rows[0]
    if (!r) return null
    const scope = (typeof r.manager_scope === 'string' ? JSON.parse(r.manager_scope) : r.manager_scope) as ManagerScope | null
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      is_admin: r.is_admin,
      is_manager: r.is_manager,
      manager_scope: { branches: scope?.branches ?? [], departments: scope?.departments ?? [] },
      branch: r.branch,
      department: r.department,
      user_group: r.user_group,
      employee_id: r.employee_id,
      hire_date: r.hire_date,
      email_verified: r.email_verified,
      created_at: new Date(r.created_at).toISOString(),
    }
  },
  findById: (em: EntityManager, id: string) => em.findOne(UserEntity, { id }),
  /** The user's auth version, or null when there is no such user (deleted). */
  async authVersion(em: EntityManager, id: string): Promise<number | null> {
    const rows = (await em.getConnection().execute('select auth_version from users where id = ?', [id])) as { auth_version: number }[]
    return rows[0]?.auth_version ?? null
  },
  /** E-mails are stored lower-case (a check constraint holds it). */
  findByEmail: (em: EntityManager, email: string) => em.findOne(UserEntity, { email: email.toLowerCase() }),
  listByName: (em: EntityManager) => em.find(UserEntity, {}, { orderBy: { name: 'asc', email: 'asc' } }),
  count: (em: EntityManager) => em.count(UserEntity, {}),
}
