import { Migration } from '@portal/server-kit'

/**
 * Announces every existing user once more, as `identity.user.updated.v1` with their current facts,
 * so that projections started after the users were registered fill up (learning's `users`): the
 * in-process bus of the single-node mode forgets everything at a restart, and JetStream keeps
 * events for 30 days only. A fresh database has no users, so nothing is announced there. (The
 * auth version starts at 0, added by 0003; employee id and hire date were added to the facts later,
 * for databases that apply this migration from then on.)
 */
export class AnnounceUsers extends Migration {
  override async up() {
    // The event id is drawn per row in the CTE (a volatile call in its select list runs once per user).
    this.addSql(`with announced as (
        select gen_random_uuid() as event_id, date_trunc('milliseconds', now()) as at, u.* from users u)
      insert into outbox (id, type, payload, occurred_at)
      select event_id, 'identity.user.updated.v1',
        jsonb_build_object(
          'id', event_id,
          'type', 'identity.user.updated.v1',
          'occurredAt', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object(
            'userId', id, 'name', name, 'email', email, 'isAdmin', is_admin, 'isManager', is_manager,
            'managerScope', jsonb_build_object(
              'branches', coalesce(manager_scope -> 'branches', '[]'::jsonb),
              'departments', coalesce(manager_scope -> 'departments', '[]'::jsonb)),
            'branch', branch, 'department', department, 'userGroup', user_group,
            'employeeId', employee_id, 'hireDate', hire_date, 'authVersion', 0)),
        at
      from announced
      order by created_at, id`)
  }
}
