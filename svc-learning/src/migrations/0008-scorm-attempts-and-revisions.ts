import { Migration } from '@portal/server-kit'

/**
 * SCORM conformance (docs/decisions/0031-scorm-attempts-and-revisions.md):
 * - `scorm_revisions`: per learner and module, a revision each stored commit moves on, and the
 *   launch that wrote last. A launch is handed the revision; its commits are stored only while
 *   nobody else wrote since (or it wrote last): an idle tab opened later cannot overwrite newer work.
 * - `scorm_attempts`: the results of SCORM 2004 attempts that ended (an exit other than suspend),
 *   kept for history when the next attempt starts over.
 */
export class ScormAttemptsAndRevisions extends Migration {
  override async up() {
    this.addSql(`create table scorm_revisions (
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      revision bigint not null,
      launch_id text not null,
      -- the writer's launch time, and whether its last stored commit was its final one
      launch_at bigint not null,
      final boolean not null,
      primary key (user_id, module_id))`)
    this.addSql(`create table scorm_attempts (
      id bigserial primary key,
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      item_id text not null,
      cmi jsonb not null,
      lesson_status text not null,
      score double precision,
      total_time text not null,
      exit text not null,
      ended_at timestamptz not null)`)
    this.addSql('create index scorm_attempts_learner on scorm_attempts (user_id, module_id, item_id)')
  }
}
