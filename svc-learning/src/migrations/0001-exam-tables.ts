import { Migration } from '@portal/server-kit'

/** Exams, their question pools, assignments and attempts (each attempt keeps its own question snapshot). */
export class ExamTables extends Migration {
  override async up() {
    this.addSql(`create table exams (
      id serial primary key,
      name text not null,
      time_limit int not null,
      pass_score double precision not null,
      total_questions int not null,
      subject_categories jsonb not null default '[]',
      exam_type text not null check (exam_type in ('practice', 'final')),
      max_attempts int,
      is_assigned_to_all boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    this.addSql(`create table exam_questions (
      id serial primary key,
      exam_id int not null references exams (id) on delete cascade,
      position int not null,
      question_type text not null check (question_type in ('multiple_choice', 'multi_select')),
      question_text text not null,
      options jsonb not null,
      correct_answer jsonb not null,
      subject_category text,
      category_weight double precision not null default 1)`)
    this.addSql('create index exam_questions_exam on exam_questions (exam_id, position)')
    this.addSql(`create table exam_assignments (
      exam_id int not null references exams (id) on delete cascade,
      user_id uuid not null,
      assigned_at timestamptz not null,
      primary key (exam_id, user_id))`)
    this.addSql('create index exam_assignments_user on exam_assignments (user_id)')
    // No foreign key to exams: a graded attempt outlives its exam (history and stats).
    this.addSql(`create table exam_attempts (
      id uuid primary key,
      exam_id int not null,
      user_id uuid not null,
      attempt_number int not null,
      exam_name text not null,
      pass_score double precision not null,
      questions jsonb not null,
      answers jsonb not null,
      status text not null check (status in ('in_progress', 'submitted', 'expired')),
      started_at timestamptz not null,
      deadline timestamptz not null,
      answers_saved_at timestamptz,
      finalised_at timestamptz,
      score double precision,
      passed boolean,
      result jsonb,
      unique (exam_id, user_id, attempt_number))`)
    // At most one attempt under way per learner and exam.
    this.addSql("create unique index exam_attempts_open on exam_attempts (exam_id, user_id) where status = 'in_progress'")
    this.addSql("create index exam_attempts_due on exam_attempts (deadline) where status = 'in_progress'")
    this.addSql('create index exam_attempts_user on exam_attempts (user_id, finalised_at)')
  }
}
