import { Migration } from '@portal/server-kit'

/**
 * Options shuffled per attempt (issue 27, decision 0045). Exams stored before keep their order
 * (`shuffle_options` false: an admin turns it on once any "All of the above" is marked
 * `keep_option_order`), except the two demo exams, whose correct option was always listed first.
 * An attempt holds the order it shows (`option_orders`, one permutation of pool indexes per
 * question); attempts started before have none and show the stored order.
 */
export class OptionShuffle extends Migration {
  override async up() {
    this.addSql('alter table exams add column shuffle_options boolean not null default false')
    this.addSql('alter table exam_questions add column keep_option_order boolean not null default false')
    this.addSql('alter table exam_attempts add column option_orders jsonb')
    this.addSql(`update exams set shuffle_options = true where name in ('Electrical Safety Basics', 'Lockout/Tagout Certification')`)
  }
}
