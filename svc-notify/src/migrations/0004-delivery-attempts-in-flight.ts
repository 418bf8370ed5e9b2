import { Migration } from '@portal/server-kit'

/**
 * A delivery's attempt in flight (decision 0043): `sending_since` is set by the claim that hands
 * the mail to the transport and cleared when the attempt's outcome is recorded, so a delivery
 * claimed again with it still set was interrupted (its sender died) and may have been accepted;
 * `unknown_outcome_resends` counts the times such a mail was sent again without knowing. The
 * sender claims one delivery at a time, oldest first: an index in that order spares each claim a
 * sort of the whole backlog.
 */
export class DeliveryAttemptsInFlight extends Migration {
  override async up() {
    this.addSql('alter table email_deliveries add column if not exists sending_since timestamptz')
    this.addSql('alter table email_deliveries add column if not exists unknown_outcome_resends int not null default 0')
    this.addSql("create index if not exists email_deliveries_pending_order on email_deliveries (created_at, id) where status = 'pending'")
  }
}
