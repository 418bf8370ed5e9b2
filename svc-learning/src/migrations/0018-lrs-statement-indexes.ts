import { Migration } from '@portal/server-kit'

/**
 * The statements' indexes, cut to what the LRS reads (issue 26's bench). Every statements query is
 * held to its session's registration (an auth-token opens no other), so `(registration, seq)`
 * serves them all, verb, activity, agent and paging included, and the primary key serves lookups
 * by id and voiding. The indexes on seq, agent, object agent, activity and verb were never read,
 * and each cost every stored statement an index insert: on this machine they halved the inserts a
 * second. An LRS query across registrations (an admin's) would bring back the one it needs.
 */
export class LrsStatementIndexes extends Migration {
  override async up() {
    for (const name of ['xapi_statements_stored', 'xapi_statements_agent', 'xapi_statements_activity', 'xapi_statements_verb', 'xapi_statements_object_agent']) {
      this.addSql(`drop index if exists ${name}`)
    }
  }
}
