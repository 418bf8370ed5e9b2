import { Migration } from '@portal/server-kit'

/**
 * Courses, their modules (files and SCORM packages), assignments, each learner's module progress,
 * course completions and the stored SCORM runtime state per learner, module and SCO.
 */
export class CourseTables extends Migration {
  override async up() {
    this.addSql(`create table courses (
      id serial primary key,
      title text not null,
      is_assigned_to_all boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    this.addSql(`create table course_modules (
      id serial primary key,
      course_id int not null references courses (id) on delete cascade,
      title text not null,
      position int not null,
      original_name text not null,
      content_type text not null,
      size bigint not null,
      is_scorm boolean not null,
      -- the uploaded file as stored
      storage_key text not null,
      -- ready | processing | failed (packages are ingested in the background)
      processing_status text not null check (processing_status in ('ready', 'processing', 'failed')),
      processing_error text,
      -- a worker holds a package being ingested until this time; past it another may take it over
      lease_until timestamptz,
      scorm_version text check (scorm_version in ('1.2', '2004', 'AICC')),
      scorm_edition text,
      -- parsed package: { title, items: ScormItem[] with hrefs relative to the package root }
      manifest jsonb,
      -- storage prefix of the extracted package
      content_prefix text,
      sco_count int not null default 0,
      has_edits boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    this.addSql('create index course_modules_course on course_modules (course_id, position)')
    this.addSql("create index course_modules_pending on course_modules (id) where processing_status = 'processing'")
    this.addSql(`create table course_assignments (
      course_id int not null references courses (id) on delete cascade,
      user_id uuid not null,
      assigned_at timestamptz not null,
      primary key (course_id, user_id))`)
    this.addSql('create index course_assignments_user on course_assignments (user_id)')
    // Progress outlives nothing: deleting a course or module deletes its learners' progress.
    this.addSql(`create table module_progress (
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      course_id int not null references courses (id) on delete cascade,
      progress int not null default 0 check (progress between 0 and 100),
      started_at timestamptz,
      completed_at timestamptz,
      completion_trigger text,
      last_accessed timestamptz,
      primary key (user_id, module_id))`)
    this.addSql('create index module_progress_course on module_progress (user_id, course_id)')
    this.addSql(`create table course_completions (
      user_id uuid not null,
      course_id int not null references courses (id) on delete cascade,
      completed_at timestamptz not null,
      primary key (user_id, course_id))`)
    // The whole cmi tree of one SCO per learner; (launch_at, seq) orders commits so that a late or
    // repeated one never overwrites newer state.
    this.addSql(`create table scorm_states (
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      item_id text not null,
      launch_at bigint not null,
      seq int not null,
      cmi jsonb not null,
      lesson_status text not null default 'not attempted',
      score double precision,
      location text not null default '',
      suspend_data text not null default '',
      total_time text not null default '0000:00:00',
      session_time text not null default '0000:00:00',
      exit text not null default '',
      interactions jsonb not null default '[]',
      updated_at timestamptz not null,
      primary key (user_id, module_id, item_id))`)
    // SCORM 2004 4th adl.data stores, shared by the SCOs of one package for one learner.
    this.addSql(`create table scorm_shared_data (
      user_id uuid not null,
      module_id int not null references course_modules (id) on delete cascade,
      store_id text not null,
      store text not null,
      updated_at timestamptz not null,
      primary key (user_id, module_id, store_id))`)
    // Storage objects to delete once nothing refers to them (a failed upload, a deleted module);
    // a cleaner removes them, so no orphan file outlives a crash between database and storage.
    this.addSql(`create table storage_garbage (
      key text primary key,
      is_prefix boolean not null,
      created_at timestamptz not null)`)
  }
}
