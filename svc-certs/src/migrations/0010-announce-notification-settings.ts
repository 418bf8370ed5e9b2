import { Migration } from '@portal/server-kit'

/** An instant as the events' ISO text (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * Announces what svc-notify learns from certs for assignment reminders (issue 24) as it stands
 * before the events existed: every branch/department notification configuration
 * (`certs.notification-config.changed.v1`) and every technician's current pause
 * (`certs.notification-pause.changed.v1`), once each. The outbox relay publishes rows written by
 * SQL; from here on the routes (and the demo data) announce every change in their transaction.
 */
export class AnnounceNotificationSettings extends Migration {
  override async up() {
    // The event id is drawn per row in the CTE (a volatile call in its select list runs once per row).
    this.addSql(`with announced as (
        select gen_random_uuid() as event_id, date_trunc('milliseconds', now()) as at, c.* from notification_configs c)
      insert into outbox (id, type, payload, occurred_at)
      select event_id, 'certs.notification-config.changed.v1',
        jsonb_build_object(
          'id', event_id,
          'type', 'certs.notification-config.changed.v1',
          'occurredAt', ${iso('at')},
          'data', jsonb_build_object(
            'configId', id, 'branch', branch, 'department', department, 'managerEmail', manager_email,
            'operationsManagerEmail', operations_manager_email, 'isActive', is_active, 'at', ${iso('at')})),
        at
      from announced
      order by id`)
    this.addSql(`with announced as (
        select gen_random_uuid() as event_id, date_trunc('milliseconds', now()) as at, t.* from technicians t
         where t.notifications_paused_until > now())
      insert into outbox (id, type, payload, occurred_at)
      select event_id, 'certs.notification-pause.changed.v1',
        jsonb_build_object(
          'id', event_id,
          'type', 'certs.notification-pause.changed.v1',
          'occurredAt', ${iso('at')},
          'data', jsonb_build_object('userId', user_id, 'pausedUntil', ${iso('notifications_paused_until')}, 'at', ${iso('at')})),
        at
      from announced
      order by user_id`)
  }
}
