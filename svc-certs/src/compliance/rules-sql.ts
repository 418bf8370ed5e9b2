import { COMPLIANT_AT, EXPIRY_BANDS, RECERTIFICATION_WINDOW_DAYS } from '@portal/contracts'
import { assignmentRoutines } from '@portal/server-kit'
import { TECHNICIAN_CONDITIONS } from './ledger.repository.ts'

/**
 * The certification rules of `@portal/contracts/cert-rules` in SQL, one function for each, named
 * after it (issue 23). They are created at every start (`create or replace`, see
 * `ledgerRoutines`), never frozen in a migration, so the rule changes in one commit on both sides;
 * `rules-sql.test.ts` checks each pair agrees over the boundary days. The simple ones are
 * `immutable` SQL functions, which PostgreSQL inlines into the statements that call them.
 *
 * TypeScript                    SQL
 * todayIn(companyTimeZone)      certs_today()
 * daysUntil(date, today)        certs_days_left(date, today)
 * isExpired(days)               certs_is_expired(days)
 * isExpiringSoon(days)          certs_is_expiring_soon(days)
 * expirationBadge(days)         certs_badge(days)
 * noticeBand(days)              certs_notice_band(days)
 * isCertificationValid(c, t)    certs_is_valid(expiration, today)
 * certificationStatus(c, t)     certs_status(expiration, verified_at, file_name, upload_required, today)
 * requirementMet(c, t, view)    certs_requirement_met(expiration, file_name, upload_required, today, manager_view)
 * completionPercent(met, total) certs_completion_percent(met, total)
 * meetsRequirements(p)          certs_meets_requirements(completion)
 * hasNoExpired(n)               certs_has_no_expired(expired_held)
 * compliancePercentage(c, n)    certs_compliance_percentage(compliant, total)
 * computeExpiration(d, m)       certs_compute_expiration(obtained, months)
 * renewedExpiration(o, d, m)    certs_renewed_expiration(old_expiration, renewed_on, months)
 */

/** A time zone name as a SQL literal (the environment check lets only IANA names through; quotes doubled all the same). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

/** The rule functions, in dependency order. */
export const ruleFunctions = (timeZone: string): string[] => [
  // The company's calendar date: every figure, trigger and check counts days from it.
  `create or replace function certs_today() returns date language sql stable as $$ select (now() at time zone ${literal(timeZone)})::date $$`,
  `create or replace function certs_days_left(expiration date, today date) returns integer language sql immutable as $$ select expiration - today $$`,
  `create or replace function certs_is_expired(days integer) returns boolean language sql immutable as $$ select days < 0 $$`,
  `create or replace function certs_is_expiring_soon(days integer) returns boolean language sql immutable as $$
     select days >= 0 and days <= ${EXPIRY_BANDS.warning} $$`,
  `create or replace function certs_badge(days integer) returns text language sql immutable as $$
     select case when days is null then null when days < 0 then 'expired' when days <= ${EXPIRY_BANDS.critical} then 'critical'
       when days <= ${EXPIRY_BANDS.warning} then 'warning' when days <= ${EXPIRY_BANDS.notice} then 'notice' end $$`,
  `create or replace function certs_notice_band(days integer) returns integer language sql immutable as $$
     select case when days < 0 then 0 when days <= 7 then 7 when days <= 14 then 14 when days <= 30 then 30 end $$`,
  `create or replace function certs_is_valid(expiration date, today date) returns boolean language sql immutable as $$
     select expiration is null or expiration >= today $$`,
  `create or replace function certs_status(expiration date, verified_at timestamptz, file_name text, upload_required boolean, today date) returns text language sql immutable as $$
     select case when not (expiration is null or expiration >= today) then 'Expired' when verified_at is not null then 'Verified'
       when upload_required then case when file_name is not null then 'Uploaded' else 'Not Uploaded' end else 'Completed' end $$`,
  `create or replace function certs_requirement_met(expiration date, file_name text, upload_required boolean, today date, manager_view boolean) returns boolean language sql immutable as $$
     select (expiration is null or expiration >= today) and not (manager_view and upload_required and file_name is null) $$`,
  `create or replace function certs_completion_percent(met integer, total integer) returns integer language sql immutable as $$
     select case when total = 0 then 100 else (met * 100) / total end $$`,
  `create or replace function certs_meets_requirements(completion integer) returns boolean language sql immutable as $$ select completion >= ${COMPLIANT_AT} $$`,
  `create or replace function certs_has_no_expired(expired_held integer) returns boolean language sql immutable as $$ select expired_held = 0 $$`,
  `create or replace function certs_compliance_percentage(compliant integer, total integer) returns integer language sql immutable as $$
     select case when total = 0 then 100 else round((compliant * 100)::numeric / total)::integer end $$`,
  // The day clamped to the month's end, as JavaScript's Date.UTC(y, m, min(d, last)) does.
  `create or replace function certs_compute_expiration(obtained date, months integer) returns date language sql immutable as $$
     select case when months is null then null else (obtained + make_interval(months => months))::date end $$`,
  `create or replace function certs_renewed_expiration(old_expiration date, renewed_on date, months integer) returns date language sql immutable as $$
     select case when months is null then null
       when old_expiration is not null and old_expiration - renewed_on between 0 and ${RECERTIFICATION_WINDOW_DAYS}
         then certs_compute_expiration(old_expiration, months)
       else certs_compute_expiration(renewed_on, months) end $$`,
]

/**
 * The kept per-member figures of the team dashboard, the admin overview and Certification
 * Notification Management (decision 0036; `team_member_figures`): tier, requirements that count
 * and those met in the manager view, completion, expired and expiring-soon certifications, those
 * in the critical (0-10 days) and notice (31-60 days) bands, their assignments overdue (issue 24,
 * by the state rule `assignment_state`), and the member's branch, department and whether they
 * count as a technician (`TECHNICIAN_CONDITIONS`; the users' triggers recompute the row when those
 * change), as of `computed_on`, good until `stale_on` (the first day one of the member's
 * certifications enters the 60-, 30- or 10-day band or expires, or one of their assignments
 * becomes overdue). The requirements that count are those of `compliance/requirements.ts`
 * (decision 0015): the required types of every tier up to the member's, active, and for their
 * department or every department.
 */
export const refreshFunction = `create or replace function certs_refresh_member_figures(ids uuid[], today date) returns void language sql as $$
  with members as materialized (
    select u.id, u.branch, u.department, coalesce(t.current_tier, 0)::int as current_tier,
      (${TECHNICIAN_CONDITIONS.join(' and ')}) as technician
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
            and certs_requirement_met(tc.expiration_date, tc.file_name, rt.upload_required, today, true)
          then case m.current_tier when 0 then rt.n0 when 1 then rt.n1 when 2 then rt.n2 else rt.n3 end else 0 end)::int as met,
      count(*) filter (where certs_is_expired(certs_days_left(tc.expiration_date, today)))::int as expired,
      count(*) filter (where certs_is_expiring_soon(certs_days_left(tc.expiration_date, today)))::int as soon,
      count(*) filter (where certs_badge(certs_days_left(tc.expiration_date, today)) = 'critical')::int as critical,
      count(*) filter (where certs_badge(certs_days_left(tc.expiration_date, today)) = 'notice')::int as notice,
      -- the next day a figure changes: entering the 60-day (notice), 30-day (warning) and 10-day
      -- (critical) bands, then expiring
      min(case when tc.expiration_date - ${EXPIRY_BANDS.notice} > today then tc.expiration_date - ${EXPIRY_BANDS.notice}
               when tc.expiration_date - ${EXPIRY_BANDS.warning} > today then tc.expiration_date - ${EXPIRY_BANDS.warning}
               when tc.expiration_date - ${EXPIRY_BANDS.critical} > today then tc.expiration_date - ${EXPIRY_BANDS.critical}
               when tc.expiration_date + 1 > today then tc.expiration_date + 1 end) as stale_on
    from members m join technician_certifications tc on tc.user_id = m.id
    left join req_types rt on rt.certification_id = tc.certification_id
    group by tc.user_id),
  -- issue 24: the member's assignments overdue today by the state rule, read along the projection's
  -- index of the rows that can be overdue (overdue_from: the first day a row is), and the next day
  -- one becomes overdue
  overdue as (
    select a.user_id,
      count(*) filter (where a.overdue_from <= today
        and assignment_state(a.due_on, a.opens_on, a.completed_on, a.next_due_on, a.next_opens_on, a.exempt, a.due_soon_days, today) = 'overdue')::int as overdue,
      min(a.overdue_from) filter (where a.overdue_from > today) as stale_on
    from members m join member_assignments a on a.user_id = m.id and a.overdue_from is not null
    group by a.user_id),
  totals as (
    select m.*, (select count(*) from reqs q where q.tier_level <= m.current_tier and (q.department is null or q.department = m.department))::int as total
    from members m)
  insert into team_member_figures as f (user_id, current_tier, required_count, met_count, completion_percentage, expired_certifications, expiring_soon,
    expiring_critical, expiring_notice, overdue_assignments, branch, department, technician, computed_on, stale_on)
  select m.id, m.current_tier, m.total, coalesce(x.met, 0), certs_completion_percent(coalesce(x.met, 0), m.total),
    coalesce(x.expired, 0), coalesce(x.soon, 0), coalesce(x.critical, 0), coalesce(x.notice, 0), coalesce(o.overdue, 0),
    m.branch, m.department, m.technician, today, least(x.stale_on, o.stale_on)
  from totals m left join figures x on x.user_id = m.id left join overdue o on o.user_id = m.id
  on conflict (user_id) do update set current_tier = excluded.current_tier, required_count = excluded.required_count,
    met_count = excluded.met_count, completion_percentage = excluded.completion_percentage,
    expired_certifications = excluded.expired_certifications, expiring_soon = excluded.expiring_soon,
    expiring_critical = excluded.expiring_critical, expiring_notice = excluded.expiring_notice,
    overdue_assignments = excluded.overdue_assignments,
    branch = excluded.branch, department = excluded.department, technician = excluded.technician,
    computed_on = excluded.computed_on, stale_on = excluded.stale_on
$$`

/**
 * What svc-certs creates in its database at every start, after the migrations: the rule functions,
 * the assignment state rule (server-kit's, which the refresh calls), the kept figures' refresh,
 * and `certs_figures_today()` (the triggers' day, migration 0006) as the company's today. Run under
 * one advisory lock, so replicas starting together do not race.
 */
export const ledgerRoutines = (timeZone: string): string[] => [
  ...ruleFunctions(timeZone),
  ...assignmentRoutines(),
  refreshFunction,
  'create or replace function certs_figures_today() returns date language sql stable as $$ select certs_today() $$',
]
