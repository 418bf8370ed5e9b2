import type { EntityManager } from '@mikro-orm/postgresql'
import { EXPIRY_BANDS, type Branch, type Department, type TeamMemberRow, type TeamSort, type TeamSummary, type TierLevel } from '@portal/contracts'
import { teamConditions, type TeamViewer } from './team-access.ts'

/** The filters of the team screen and the export. */
export interface TeamFilter {
  branch?: Branch | undefined
  department?: Department | undefined
  search?: string | undefined
  sort: TeamSort
  order: 'asc' | 'desc'
}

const DAY_MS = 86_400_000
const plusDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
/** `%` and `_` are literal in a search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

const ORDER: Record<TeamSort, string> = {
  name: 'lower(name) {dir}',
  location: 'branch {dir} nulls last, department {dir} nulls last',
  progress: 'completion_percentage {dir}',
  issues: 'expired_certifications + expiring_soon {dir}, expired_certifications {dir}',
  tier: 'current_tier {dir}',
}

/**
 * The members the viewer sees, filtered, each with the figures of the team row, as one statement
 * (the dashboard's summary and page, and the export, come from the same rows). The rule is the one
 * of `technicians/compliance.ts` (decision 0015) in SQL: the required types of every tier up to the
 * member's, active and for their department (or every department), met when held, not expired and,
 * in this manager view, with the proof uploaded where the type asks for one; 100% when nothing is
 * required. Expired and expiring soon (within 30 days) count every certification held.
 */
function scoredMembers(viewer: TeamViewer, f: TeamFilter, today: string): { sql: string; params: unknown[] } {
  // A manager's team is the others in their scope.
  const { where, params } = teamConditions(viewer)
  where.push('u.id <> ?')
  params.push(viewer.actor.userId)
  if (f.branch) (where.push('u.branch = ?'), params.push(f.branch))
  if (f.department) (where.push('u.department = ?'), params.push(f.department))
  if (f.search) {
    const like = likePattern(f.search)
    where.push('(u.name ilike ? or u.email ilike ? or u.employee_id ilike ?)')
    params.push(like, like, like)
  }
  const sql = `with members as materialized (
      select u.id, u.name, u.email, u.employee_id, u.branch, u.department, coalesce(t.current_tier, 0)::int as current_tier
      from users u left join technicians t on t.user_id = u.id
      where ${where.join(' and ')}),
    reqs as (
      select tr.tier_level, tr.certification_id, ct.department, ct.upload_required
      from tier_requirements tr join certification_types ct on ct.id = tr.certification_id
      where tr.is_required and ct.is_active),
    -- Per type: how many of its requirements count for a member of tier 0, 1, 2, 3 (tiers are cumulative).
    req_types as (
      select certification_id, department, upload_required,
        count(*) filter (where tier_level <= 0) as n0, count(*) filter (where tier_level <= 1) as n1,
        count(*) filter (where tier_level <= 2) as n2, count(*) as n3
      from reqs group by certification_id, department, upload_required),
    -- One pass over the members' certifications: requirements met, expired and expiring soon.
    figures as (
      select tc.user_id,
        sum(case when rt.certification_id is not null and (rt.department is null or rt.department = m.department)
              and (tc.expiration_date is null or tc.expiration_date >= ?::date) and (not rt.upload_required or tc.file_name is not null)
            then case m.current_tier when 0 then rt.n0 when 1 then rt.n1 when 2 then rt.n2 else rt.n3 end else 0 end)::int as met,
        count(*) filter (where tc.expiration_date < ?::date)::int as expired,
        count(*) filter (where tc.expiration_date >= ?::date and tc.expiration_date <= ?::date)::int as soon
      from members m join technician_certifications tc on tc.user_id = m.id
      left join req_types rt on rt.certification_id = tc.certification_id
      group by tc.user_id),
    scored as (
      select m.*,
        case when m.total = 0 then 100 else coalesce(f.met, 0) * 100 / m.total end as completion_percentage,
        coalesce(f.expired, 0) as expired_certifications,
        coalesce(f.soon, 0) as expiring_soon
      from (select m.*, (select count(*) from reqs q where q.tier_level <= m.current_tier and (q.department is null or q.department = m.department))::int as total
            from members m) m
      left join figures f on f.user_id = m.id)`
  params.push(today, today, today, plusDays(today, EXPIRY_BANDS.warning))
  return { sql, params }
}

const orderBy = (f: TeamFilter) => `${ORDER[f.sort].replaceAll('{dir}', f.order)}, lower(name) asc, id asc`

interface RowSql {
  id: string
  name: string
  email: string | null
  employee_id: string | null
  branch: Branch | null
  department: Department | null
  current_tier: number
  completion_percentage: number
  expired_certifications: number
  expiring_soon: number
}

export const toTeamMemberRow = (r: RowSql): TeamMemberRow => ({
  id: r.id,
  name: r.name,
  email: r.email ?? '',
  employee_id: r.employee_id,
  branch: r.branch,
  department: r.department,
  tier: { current_tier: Number(r.current_tier) as TierLevel },
  completion_percentage: Number(r.completion_percentage),
  expired_certifications: Number(r.expired_certifications),
  expiring_soon: Number(r.expiring_soon),
})

/** The dashboard's statement (also run bare by the benchmark's ceiling): the summary and one page. */
export function teamPageStatement(viewer: TeamViewer, f: TeamFilter, today: string, page: { limit: number; offset: number }) {
  const { sql, params } = scoredMembers(viewer, f, today)
  return {
    sql: `${sql}
      select
        (select json_build_object(
          'total_team', count(*),
          'compliant', count(*) filter (where completion_percentage >= 100),
          'avg_progress', round(avg(completion_percentage)),
          'expired', coalesce(sum(expired_certifications), 0),
          'expiring_soon', coalesce(sum(expiring_soon), 0)) from scored) as summary,
        (select coalesce(json_agg(p), '[]'::json) from (select * from scored order by ${orderBy(f)} limit ? offset ?) p) as rows`,
    params: [...params, page.limit, page.offset],
  }
}

export const teamRepository = {
  /** One page of the team and the summary of every matching member, in one statement. */
  async page(em: EntityManager, viewer: TeamViewer, f: TeamFilter, today: string, page: { limit: number; offset: number }) {
    const { sql, params } = teamPageStatement(viewer, f, today, page)
    const rows = (await em.execute(sql, params)) as { summary: Record<keyof TeamSummary, number | string | null>; rows: RowSql[] }[]
    const s = rows[0]!.summary
    const summary: TeamSummary = {
      total_team: Number(s.total_team),
      compliant: Number(s.compliant),
      avg_progress: s.avg_progress === null ? null : Number(s.avg_progress),
      expired: Number(s.expired),
      expiring_soon: Number(s.expiring_soon),
    }
    return { summary, rows: rows[0]!.rows.map(toTeamMemberRow) }
  },

  /** Every matching member, in the screen's order (the export). */
  async all(em: EntityManager, viewer: TeamViewer, f: TeamFilter, today: string): Promise<TeamMemberRow[]> {
    const { sql, params } = scoredMembers(viewer, f, today)
    const rows = (await em.execute(`${sql} select * from scored order by ${orderBy(f)}`, params)) as RowSql[]
    return rows.map(toTeamMemberRow)
  },
}
