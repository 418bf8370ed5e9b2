import { Migration } from '@portal/server-kit'

/**
 * Question lifecycle (issue 27): a question can be retired from its exam's pool: it is kept (its
 * attempts' results and their analysis still name it) but never offered again. An edit of a
 * question that has been answered makes a new version (a new row naming the one it `replaces`),
 * and the answered one is retired. Questions stored before are all active.
 */
export class QuestionLifecycle extends Migration {
  override async up() {
    this.addSql('alter table exam_questions add column retired_at timestamptz')
    this.addSql('alter table exam_questions add column replaces_id int')
    // Whether a question has been answered (an edit then makes a new version).
    this.addSql('create index exam_attempt_items_question on exam_attempt_items (question_id)')
  }
}
