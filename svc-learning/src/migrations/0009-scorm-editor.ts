import { Migration } from '@portal/server-kit'

/**
 * The SCORM timing editor (decision 0033): edited files of an extracted package are new objects
 * listed by a revision (the extracted package itself is never overwritten); a learner's launch
 * reads the revision current when it was issued. Backups keep the files as they were before each
 * change, with who made it.
 */
export class ScormEditor extends Migration {
  override async up() {
    this.addSql(`create table scorm_package_revisions (
      id serial primary key,
      module_id int not null references course_modules (id) on delete cascade,
      -- {path in the package: storage key} of every file that differs from the extracted package
      files jsonb not null,
      created_at timestamptz not null default clock_timestamp())`)
    this.addSql('create index scorm_package_revisions_module on scorm_package_revisions (module_id, id desc)')
    this.addSql(`create table scorm_backups (
      id serial primary key,
      module_id int not null references course_modules (id) on delete cascade,
      backup_name text not null,
      -- the package's edited files as they were: {path in the package: storage key}
      files jsonb not null,
      created_by uuid,
      creator_name text,
      created_at timestamptz not null)`)
    this.addSql('create index scorm_backups_module on scorm_backups (module_id, id desc)')
  }
}
