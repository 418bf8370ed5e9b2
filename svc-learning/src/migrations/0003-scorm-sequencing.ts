import { Migration } from '@portal/server-kit'

/**
 * The SCORM 2004 sequencing engine's state per learner and module (activity tree tracking, global
 * objectives, suspended activity), so a later visit resumes sequencing where the last one left it.
 */
export class ScormSequencing extends Migration {
  override async up() {
    // (launch_at, seq) orders commits as in scorm_states: a late commit never overwrites newer state.
    // root_* is the root activity's rollup as of that state (the module's completion rule reads it).
    this.addSql(`create table scorm_sequencing_states (
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      launch_at bigint not null,
      seq int not null,
      state jsonb not null,
      root_completion text not null,
      root_success text not null,
      updated_at timestamptz not null,
      primary key (user_id, module_id))`)
  }
}
