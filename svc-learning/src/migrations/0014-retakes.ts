import { Migration } from '@portal/server-kit'

/**
 * Recurring training is retaken (issue 24, decision 0051): when a person's next cycle of a
 * recurring assignment opens, their row rolls forward and they get a fresh go at the item.
 * - `exam_attempt_resets`: per learner and exam, the first attempt number the exam's attempt limit
 *   counts (`max_attempts`): attempts started before the cycle opened no longer use it up. No
 *   foreign key to `exams` (as `exam_attempts`): a roll forward never waits on the exam's row.
 * - `assignment_people_next_cycle`: the completed rows waiting for a next cycle, which the daily
 *   scan reads by the day that cycle opens.
 */
export class Retakes extends Migration {
  override async up() {
    this.addSql(`create table exam_attempt_resets (
      exam_id int not null,
      user_id uuid not null,
      -- attempts numbered from here on count against the exam's max_attempts
      counts_from int not null check (counts_from >= 1),
      reset_at timestamptz not null,
      primary key (exam_id, user_id))`)
    this.addSql(`create index assignment_people_next_cycle on assignment_people (next_opens_on)
      where completed_on is not null and next_due_on is not null and removed_at is null and exempt_reason is null`)
  }
}
