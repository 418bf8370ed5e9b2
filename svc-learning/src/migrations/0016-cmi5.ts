import { Migration } from '@portal/server-kit'

/**
 * cmi5 and the learning record store (issue 26, decision 0053).
 * - `course_modules.scorm_version` may say 'cmi5': the package's structure is in its manifest.
 * - `cmi5_registrations`: one per learner and cmi5 course (module), the registration of every
 *   statement about it.
 * - `cmi5_sessions`: one per launch of an AU. The fetch URL's one-time token and the auth-token it
 *   hands out are kept as SHA-256 hashes only; `terminated_at` / `abandoned_at` end a session.
 * - `cmi5_au_status`: what the registration has reached in each AU (moveOn is judged from it).
 * - `xapi_statements`: the statements of the LRS, with the columns its filters read.
 * - `xapi_documents`: the State, Activity Profile and Agent Profile resources in one table.
 */
export class Cmi5 extends Migration {
  override async up() {
    this.addSql('alter table course_modules drop constraint if exists course_modules_scorm_version_check')
    this.addSql(`alter table course_modules add constraint course_modules_scorm_version_check
      check (scorm_version in ('1.2', '2004', 'AICC', 'cmi5'))`)

    this.addSql(`create table cmi5_registrations (
      registration uuid primary key,
      user_id uuid not null,
      course_id int not null,
      module_id int not null references course_modules (id) on delete cascade,
      created_at timestamptz not null,
      satisfied_at timestamptz,
      unique (user_id, module_id))`)

    this.addSql(`create table cmi5_sessions (
      session_id uuid primary key,
      registration uuid not null references cmi5_registrations (registration) on delete cascade,
      au_id text not null,
      launch_mode text not null check (launch_mode in ('Normal', 'Browse', 'Review')),
      fetch_token_hash bytea not null unique,
      fetch_used_at timestamptz,
      auth_token_hash bytea unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      initialized_at timestamptz,
      terminated_at timestamptz,
      abandoned_at timestamptz,
      last_statement_at timestamptz)`)
    this.addSql('create index cmi5_sessions_open on cmi5_sessions (registration, au_id) where terminated_at is null and abandoned_at is null')

    this.addSql(`create table cmi5_au_status (
      registration uuid not null references cmi5_registrations (registration) on delete cascade,
      au_id text not null,
      completed_at timestamptz,
      passed_at timestamptz,
      failed_at timestamptz,
      satisfied_at timestamptz,
      waived_at timestamptz,
      waived_reason text,
      score double precision,
      primary key (registration, au_id))`)

    this.addSql(`create table xapi_statements (
      id uuid primary key,
      registration uuid,
      session_id uuid,
      verb_id text not null,
      activity_id text,
      agent_key text not null,
      -- the object's agent key when the object is an Agent or Group (the agent filter matches it too)
      object_agent_key text,
      voided boolean not null default false,
      voids uuid,
      stored timestamptz not null,
      seq bigint generated always as identity,
      statement jsonb not null)`)
    this.addSql('create index xapi_statements_stored on xapi_statements (seq)')
    this.addSql('create index xapi_statements_registration on xapi_statements (registration, seq)')
    this.addSql('create index xapi_statements_agent on xapi_statements (agent_key, seq)')
    this.addSql('create index xapi_statements_activity on xapi_statements (activity_id, seq)')
    this.addSql('create index xapi_statements_verb on xapi_statements (verb_id, seq)')
    this.addSql('create index xapi_statements_object_agent on xapi_statements (object_agent_key, seq) where object_agent_key is not null')

    this.addSql(`create table xapi_documents (
      kind text not null check (kind in ('state', 'activity_profile', 'agent_profile')),
      -- the activity id (state, activity profile) or '' (agent profile)
      activity_id text not null default '',
      -- the agent's canonical key (state, agent profile) or '' (activity profile)
      agent_key text not null default '',
      -- the registration of a state document, '' otherwise
      registration text not null default '',
      document_id text not null,
      content bytea not null,
      content_type text not null,
      etag text not null,
      updated timestamptz not null,
      primary key (kind, activity_id, agent_key, registration, document_id))`)
  }
}
