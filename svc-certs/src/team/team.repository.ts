import type { EntityManager } from '@mikro-orm/postgresql'
import { type Branch, type Department, type TeamMemberRow, type TeamSort, type TeamSummary, type TierLevel } from '@portal/contracts'
import type { Actor } from '@portal/server-kit'
import { ledgerRepository, teamConditions, type TeamViewer } from '../compliance/index.ts'

/** The filters of the team screen and the export. */
export interface TeamFilter {
  branch?: Branch | undefined
  department?: Department | undefined
  search?: string | undefined
  /** Only members with at least one overdue assignment (issue 24). */
  overdueOnly?: boolean | undefined
  sort: TeamSort
  order: 'asc' | 'desc'
}

/** `%` and `_` are literal in a search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

const ORDER: Record<TeamSort, string> = {
  name: 'lower(name) {dir}',
  location: 'branch {dir} nulls last, department {dir} nulls last',
  progress: 'completion_percentage {dir}',
  issues: 'expired_certifications + expiring_soon {dir}, expired_certifications {dir}',
  tier: 'current_tier {dir}',
  overdue: 'overdue_assignments {dir}',
}

/**
 * The members the viewer sees, filtered, each with the figures of the team row read from the kept
 * figures (the dashboard's summary and page, and the export, come from the same rows). The rule is
 * the one of `compliance/requirements.ts` (decision 0015) in SQL (migration 0005): the required
 * types of every tier up to the member's, active and for their department (or every department),
 * met when held, not expired and, in this manager view, with the proof uploaded where the type asks
 * for one; 100% when nothing is required. Expired and expiring soon (within 30 days) count every
 * certification held. Overdue assignments (issue 24) are kept in the same rows, counted by the
 * assignment state rule on the day they were computed for.
 */
function scoredMembers(viewer: TeamViewer, f: TeamFilter): { sql: string; params: unknown[] } {
  // A manager's team is the others in their scope.
  const { where, params } = teamConditions(viewer)
  where.push('u.id <> ?')
  params.push(viewer.actor.userId)
  if (f.branch) {
    where.push('u.branch = ?')
    params.push(f.branch)
  }
  if (f.department) {
    where.push('u.department = ?')
    params.push(f.department)
  }
  if (f.search) {
    const like = likePattern(f.search)
    where.push('(u.name ilike ? or u.email ilike ? or u.employee_id ilike ?)')
    params.push(like, like, like)
  }
  if (f.overdueOnly) where.push('f.overdue_assignments > 0')
  const sql = `select u.id, u.name, u.email, u.employee_id, u.branch, u.department, f.current_tier::int as current_tier,
        f.completion_percentage, f.expired_certifications, f.expiring_soon, f.overdue_assignments
      from users u join team_member_figures f on f.user_id = u.id
      where ${where.join(' and ')}`
  return { sql, params }
}

const orderBy = (f: TeamFilter) => `${ORDER[f.sort].replaceAll('{dir}', f.order)}, lower(name) asc, u.id asc`

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
  overdue_assignments: number
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
  overdue_assignments: Number(r.overdue_assignments),
})

/** The dashboard's statement (also run bare by the benchmark's ceiling): the summary and one page. */
export function teamPageStatement(viewer: TeamViewer, f: TeamFilter, page: { limit: number; offset: number }) {
  const { sql, params } = scoredMembers(viewer, f)
  // Two reads of the members rather than one shared: the page in name order walks the users'
  // `lower(name)` index and stops after the page.
  return {
    sql: `select
        (select json_build_object(
          'total_team', count(*),
          'compliant', count(*) filter (where certs_meets_requirements(completion_percentage)),
          'avg_progress', round(avg(completion_percentage)),
          'expired', coalesce(sum(expired_certifications), 0),
          'expiring_soon', coalesce(sum(expiring_soon), 0),
          'overdue_members', count(*) filter (where overdue_assignments > 0),
          'overdue_assignments', coalesce(sum(overdue_assignments), 0)) from (${sql}) s) as summary,
        (select coalesce(json_agg(p), '[]'::json) from (${sql} order by ${orderBy(f)} limit ? offset ?) p) as rows`,
    params: [...params, ...params, page.limit, page.offset],
  }
}

/** Rows a cursor hands over at a time. */
const STREAM_CHUNK = 250

export interface HeldSql {
  user_id: string
  name: string
  code: string
  tier_level: number
  upload_required: boolean
  obtained: string | null
  expiration: string | null
  verified_at: Date | null
  file_name: string | null
}

export const teamRepository = {
  /** The held certifications of these users with their types, by user, each user's by tier and name. */
  async heldByUser(em: EntityManager, userIds: string[]): Promise<Map<string, HeldSql[]>> {
    const rows = (await em.execute(
      `select tc.user_id, ct.name, ct.code, ct.tier_level, ct.upload_required, to_char(tc.obtained_date, 'YYYY-MM-DD') as obtained,
         to_char(tc.expiration_date, 'YYYY-MM-DD') as expiration, tc.verified_at, tc.file_name
       from technician_certifications tc join certification_types ct on ct.id = tc.certification_id
       where tc.user_id in (?) order by tc.user_id, ct.tier_level, ct.name, tc.id`,
      [userIds],
    )) as HeldSql[]
    const by = new Map<string, HeldSql[]>()
    for (const r of rows) by.set(r.user_id, [...(by.get(r.user_id) ?? []), r])
    return by
  },

  /** The team dashboard's summary as an admin sees it (everyone but themself): what the consistency check compares. */
  async adminSummary(em: EntityManager, admin: Actor, today: string): Promise<TeamSummary> {
    return (await this.page(em, { actor: admin, scope: null }, { sort: 'name', order: 'asc' }, today, { limit: 1, offset: 0 })).summary
  },

  /** One page of the team and the summary of every matching member, in one statement. */
  async page(em: EntityManager, viewer: TeamViewer, f: TeamFilter, today: string, page: { limit: number; offset: number }) {
    await ledgerRepository.refresh(em, today)
    const { sql, params } = teamPageStatement(viewer, f, page)
    const rows = (await em.execute(sql, params)) as { summary: Record<keyof TeamSummary, number | string | null>; rows: RowSql[] }[]
    const s = rows[0]!.summary
    const summary: TeamSummary = {
      total_team: Number(s.total_team),
      compliant: Number(s.compliant),
      avg_progress: s.avg_progress === null ? null : Number(s.avg_progress),
      expired: Number(s.expired),
      expiring_soon: Number(s.expiring_soon),
      overdue_members: Number(s.overdue_members),
      overdue_assignments: Number(s.overdue_assignments),
    }
    return { summary, rows: rows[0]!.rows.map(toTeamMemberRow) }
  },

  /**
   * Every matching member, in the screen's order, read from a cursor a few hundred at a time (the
   * export: ten thousand members are never all in memory).
   */
  async *stream(em: EntityManager, viewer: TeamViewer, f: TeamFilter, today: string): AsyncGenerator<TeamMemberRow> {
    await ledgerRepository.refresh(em, today)
    const { sql, params } = scoredMembers(viewer, f)
    for await (const r of em.getConnection().stream<RowSql>(`${sql} order by ${orderBy(f)}`, params, undefined, undefined, STREAM_CHUNK)) yield toTeamMemberRow(r)
  },
}
