import { Migration } from '@portal/server-kit'

/**
 * Deliveries of certification notices (issue 12) carry the notice id svc-certs gave them: their
 * outcome (`notify.email.sent.v1` / `notify.email.failed.v1`) names it.
 */
export class NoticeDeliveries extends Migration {
  override async up() {
    this.addSql('alter table email_deliveries add column if not exists notice_id uuid')
  }
}
