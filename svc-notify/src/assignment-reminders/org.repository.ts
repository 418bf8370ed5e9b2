import type { EntityManager } from '@mikro-orm/postgresql'
import type { EventData } from '@portal/contracts'

/** A branch/department notification configuration of svc-certs as notify keeps it. */
export interface BranchConfig {
  config_id: number
  branch: string | null
  department: string | null
  manager_email: string | null
  operations_manager_email: string | null
}

/**
 * Notify's projections of svc-certs' notification configurations and of technicians' paused
 * notifications. Each keeps the facts with the latest `at`: events of one configuration or person
 * may arrive out of order, and an older one never overwrites a newer one.
 */
export const orgRepository = {
  /** Stores a configuration unless the stored one is as new or newer; resolves with whether it did. */
  async applyConfig(em: EntityManager, c: EventData<'certs.notification-config.changed.v1'>): Promise<boolean> {
    const rows = (await em.execute(
      `insert into certs_notification_configs (config_id, branch, department, manager_email, operations_manager_email, is_active, at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (config_id) do update set
         branch = excluded.branch, department = excluded.department, manager_email = excluded.manager_email,
         operations_manager_email = excluded.operations_manager_email, is_active = excluded.is_active, at = excluded.at
       where certs_notification_configs.at < excluded.at
       returning config_id`,
      [c.configId, c.branch, c.department, c.managerEmail, c.operationsManagerEmail, c.isActive, new Date(c.at)],
    )) as unknown[]
    return rows.length > 0
  },

  /** Stores a pause (or its end, `pausedUntil` null) unless the stored one is as new or newer. */
  async applyPause(em: EntityManager, p: EventData<'certs.notification-pause.changed.v1'>): Promise<boolean> {
    const rows = (await em.execute(
      `insert into notification_pauses (user_id, paused_until, at) values (?, ?, ?)
       on conflict (user_id) do update set paused_until = excluded.paused_until, at = excluded.at
       where notification_pauses.at < excluded.at
       returning user_id`,
      [p.userId, p.pausedUntil === null ? null : new Date(p.pausedUntil), new Date(p.at)],
    )) as unknown[]
    return rows.length > 0
  },

  /**
   * The active configuration of a learner's branch and department: the same match as svc-certs'
   * expiry check (both equal; a learner without a branch or department has none). Should two be
   * active for one pair, the latest.
   */
  async configFor(em: EntityManager, branch: string | null, department: string | null): Promise<BranchConfig | null> {
    if (branch === null || department === null) return null
    const rows = (await em.execute(
      `select config_id, branch, department, manager_email, operations_manager_email from certs_notification_configs
        where is_active and branch = ? and department = ? order by at desc, config_id desc limit 1`,
      [branch, department],
    )) as BranchConfig[]
    return rows[0] ?? null
  },

  /** Whether the person's notifications are paused at `at` (paused until a later moment). */
  async isPaused(em: EntityManager, userId: string, at: Date): Promise<boolean> {
    const rows = (await em.execute('select 1 from notification_pauses where user_id = ? and paused_until > ?', [userId, at])) as unknown[]
    return rows.length > 0
  },

  /** Forgets a deleted user's pause. */
  dropUser: (em: EntityManager, userId: string) => em.execute('delete from notification_pauses where user_id = ?', [userId]),
}
