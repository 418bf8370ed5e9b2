import { Migration } from '@portal/server-kit'

/**
 * The kept figures carry what the organisation's figures and Certification Notification
 * Management's group counts are summed from (issue 23, decision 0041): each member's branch,
 * department and whether they count as a technician (as of `computed_on`, recomputed by the same
 * triggers when the user changes), and how many of their certifications are in the 0-10 day
 * (critical) and the 31-60 day (notice) bands. So those figures are one pass over the kept rows
 * instead of a join of every user and a count of every due certification on each request.
 * `certs_refresh_member_figures` (created at start, `compliance/rules-sql.ts`) fills them; every row
 * is marked stale here, so the first read recomputes it with that function.
 */
export class KeptBranchFigures extends Migration {
  override async up() {
    this.addSql(`alter table team_member_figures
      add column branch text,
      add column department text,
      add column technician boolean not null default false,
      add column expiring_critical integer not null default 0,
      add column expiring_notice integer not null default 0`)
    this.addSql('update team_member_figures set stale_on = computed_on')
  }
}
