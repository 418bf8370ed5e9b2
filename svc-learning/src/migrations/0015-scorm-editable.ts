import { Migration } from '@portal/server-kit'

/**
 * Whether a stored package holds an Adobe Captivate project, the only kind the SCORM Timing Editor
 * edits (issue 30 item 4): the course list offers Edit SCORM only where it does. Set when a
 * package is ingested; null while not yet known. Packages stored before this column are checked
 * in the background by the ingest worker, which finds them by the partial index.
 */
export class ScormEditable extends Migration {
  override async up() {
    this.addSql('alter table course_modules add column scorm_editable boolean')
    this.addSql(`create index course_modules_project_unchecked on course_modules (id)
      where is_scorm and processing_status = 'ready' and scorm_editable is null`)
  }
}
