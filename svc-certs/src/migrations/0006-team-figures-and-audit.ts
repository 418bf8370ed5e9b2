import { EXPIRY_BANDS } from '@portal/contracts'
import { AUDIT_TRAIL_SQL, Migration } from '@portal/server-kit'

/**
 * The audit trail of certs' admin changes (server-kit's table, decision 0030), and the team
 * dashboard's per-member figures kept in a table (decision 0036): tier, requirements total and met, completion, expired and expiring-soon counts, as of `computed_on`, good until
 * `stale_on` (the first day one of the member's certifications expires or enters the 30-day
 * window). Triggers recompute a member's row in the very transaction that changes their
 * certifications, tier or department, and every row when requirements or types change; the reader
 * recomputes the rows that are stale for its day (`refreshStaleFigures`), so a passing day counts.
 */
export class TeamFiguresAndAudit extends Migration {
  override async up() {
    this.addSql(`create table team_member_figures (
      user_id uuid primary key,
      current_tier smallint not null,
      required_count integer not null,
      met_count integer not null,
      completion_percentage integer not null,
      expired_certifications integer not null,
      expiring_soon integer not null,
      computed_on date not null,
      -- null: no certification will change band (none held, or none expires)
      stale_on date)`)
    this.addSql('create index team_member_figures_stale on team_member_figures (stale_on)')
    this.addSql('create index team_member_figures_computed on team_member_figures (computed_on)')
    // The rule of technicians/compliance.ts (decision 0015) in SQL, as the dashboard had it: the
    // required types of every tier up to the member's, active and for their department (or all),
    // met when held, not expired and with the proof where the type asks for one; 100% when none.
    this.addSql(`create function certs_refresh_member_figures(ids uuid[], today date) returns void language sql as $$
      with members as materialized (
        select u.id, u.department, coalesce(t.current_tier, 0)::int as current_tier
        from users u left join technicians t on t.user_id = u.id
        where ids is null or u.id = any (ids)),
      reqs as (
        select tr.tier_level, tr.certification_id, ct.department, ct.upload_required
        from tier_requirements tr join certification_types ct on ct.id = tr.certification_id
        where tr.is_required and ct.is_active),
      req_types as (
        select certification_id, department, upload_required,
          count(*) filter (where tier_level <= 0) as n0, count(*) filter (where tier_level <= 1) as n1,
          count(*) filter (where tier_level <= 2) as n2, count(*) as n3
        from reqs group by certification_id, department, upload_required),
      figures as (
        select tc.user_id,
          sum(case when rt.certification_id is not null and (rt.department is null or rt.department = m.department)
                and (tc.expiration_date is null or tc.expiration_date >= today) and (not rt.upload_required or tc.file_name is not null)
              then case m.current_tier when 0 then rt.n0 when 1 then rt.n1 when 2 then rt.n2 else rt.n3 end else 0 end)::int as met,
          count(*) filter (where tc.expiration_date < today)::int as expired,
          count(*) filter (where tc.expiration_date >= today and tc.expiration_date <= today + ${EXPIRY_BANDS.warning})::int as soon,
          -- the next day a band changes: entering the window, then expiring
          min(case when tc.expiration_date - ${EXPIRY_BANDS.warning} > today then tc.expiration_date - ${EXPIRY_BANDS.warning}
                   when tc.expiration_date + 1 > today then tc.expiration_date + 1 end) as stale_on
        from members m join technician_certifications tc on tc.user_id = m.id
        left join req_types rt on rt.certification_id = tc.certification_id
        group by tc.user_id),
      totals as (
        select m.*, (select count(*) from reqs q where q.tier_level <= m.current_tier and (q.department is null or q.department = m.department))::int as total
        from members m)
      insert into team_member_figures as f (user_id, current_tier, required_count, met_count, completion_percentage, expired_certifications, expiring_soon, computed_on, stale_on)
      select m.id, m.current_tier, m.total, coalesce(x.met, 0), case when m.total = 0 then 100 else coalesce(x.met, 0) * 100 / m.total end,
        coalesce(x.expired, 0), coalesce(x.soon, 0), today, x.stale_on
      from totals m left join figures x on x.user_id = m.id
      on conflict (user_id) do update set current_tier = excluded.current_tier, required_count = excluded.required_count,
        met_count = excluded.met_count, completion_percentage = excluded.completion_percentage,
        expired_certifications = excluded.expired_certifications, expiring_soon = excluded.expiring_soon,
        computed_on = excluded.computed_on, stale_on = excluded.stale_on
    $$`)
    // The triggers count days in UTC, as the service does (todayIso).
    this.addSql(`create function certs_figures_today() returns date language sql stable as $$ select (now() at time zone 'utc')::date $$`)
    for (const [fn, ids] of [
      ['certs_figures_of_new', 'select user_id from new_rows'],
      ['certs_figures_of_old', 'select user_id from old_rows'],
      ['certs_figures_of_both', 'select user_id from new_rows union select user_id from old_rows'],
    ] as const)
      this.addSql(`create function ${fn}() returns trigger language plpgsql as $$
        begin
          perform certs_refresh_member_figures(array(${ids}), certs_figures_today());
          return null;
        end $$`)
    this.addSql(`create function certs_figures_of_everyone() returns trigger language plpgsql as $$
      begin
        perform certs_refresh_member_figures(null, certs_figures_today());
        return null;
      end $$`)
    // A member's certifications and tier: their row. (Transition tables take one event per trigger.)
    for (const table of ['technician_certifications', 'technicians']) {
      this.addSql(`create trigger ${table}_figures_insert after insert on ${table} referencing new table as new_rows for each statement execute function certs_figures_of_new()`)
      this.addSql(
        `create trigger ${table}_figures_update after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function certs_figures_of_both()`,
      )
      this.addSql(`create trigger ${table}_figures_delete after delete on ${table} referencing old table as old_rows for each statement execute function certs_figures_of_old()`)
    }
    // A user's department (the projection): their row, keyed by `id`.
    this.addSql(`create function certs_figures_of_users() returns trigger language plpgsql as $$
      begin
        perform certs_refresh_member_figures(array(select id from new_rows), certs_figures_today());
        return null;
      end $$`)
    this.addSql(`create trigger users_figures_insert after insert on users referencing new table as new_rows for each statement execute function certs_figures_of_users()`)
    this.addSql(`create trigger users_figures_update after update on users referencing new table as new_rows for each statement execute function certs_figures_of_users()`)
    // Requirements and what of a type counts for them: everyone's row.
    this.addSql(`create trigger tier_requirements_figures after insert or update or delete on tier_requirements for each statement execute function certs_figures_of_everyone()`)
    this.addSql(
      `create trigger certification_types_figures after update of is_active, department, upload_required on certification_types for each statement execute function certs_figures_of_everyone()`,
    )
    this.addSql('select certs_refresh_member_figures(null, certs_figures_today())')
    // The dashboard's default order (by name): its page walks this index and stops.
    this.addSql('create index users_team_name on users (lower(name), id)')
    // The audit trail of certs' admin changes (decisions 0030, 0036).
    for (const sql of AUDIT_TRAIL_SQL) this.addSql(sql)
  }
}
