import type { EntityManager } from '@mikro-orm/postgresql'
import { EXPIRY_BANDS, type Branch, type Department } from '@portal/contracts'
import { TECHNICIAN_CONDITIONS } from '../compliance/index.ts'
import { FACTS_FROM } from './expiry-check.ts'

/** A dashboard request's rows: the window, expired ones or not, one branch, and at most `limit` of each group. */
export interface DashboardFilter {
  days: number
  include_expired: boolean
  branch?: Branch | undefined
  limit?: number | undefined
}

/** Whether the kept figures' group counts are the window's: every group whole (the groups past the window are left out). */
export const keptGroupsAnswer = (q: Pick<DashboardFilter, 'days'>) => q.days >= EXPIRY_BANDS.notice

/** The groups' day ranges, from the badge's bands (`expirationBadge`, `certs_badge`): [from, to] days left, to included. */
const GROUP_DAYS = [
  ['expired', null, -1],
  ['critical', 0, EXPIRY_BANDS.critical],
  ['warning', EXPIRY_BANDS.critical + 1, EXPIRY_BANDS.warning],
  ['notice', EXPIRY_BANDS.warning + 1, EXPIRY_BANDS.notice],
] as const

/**
 * Certification Notification Management's list (also run bare by the benchmark's ceiling): the
 * certifications expiring within `days` of `today` (and the expired ones unless left out), with
 * what a row shows, soonest first. With `limit` (the screen), the first of each group, each read
 * along the expiry index and stopped there, so 10,000 technicians' thousands of due certifications
 * are counted, not all sent. The groups' totals are the kept figures' (`ledgerRepository.figures`'
 * `groups`) when the window holds every group whole (`days` reaching the notice band's 60); for a
 * shorter window, which cuts a group, `counts` counts them from the certifications.
 */
export function dashboardStatements(today: string, at: Date, q: DashboardFilter): { list: { sql: string; params: unknown[] }; counts?: { sql: string; params: unknown[] } } {
  const branchFilter = (params: unknown[]) => (q.branch ? (params.push(q.branch), ' and u.branch = ?') : '')
  /** The window: due within `days`, expired ones only when included, one branch when given. */
  const within = (params: unknown[]) => {
    params.push(today, q.days)
    let filter = ' and tc.expiration_date <= ?::date + ?::int'
    if (!q.include_expired) (filter += ' and tc.expiration_date >= ?::date'), params.push(today)
    return filter + branchFilter(params)
  }
  if (q.limit === undefined) {
    const params: unknown[] = [today, at]
    return { list: { sql: `${FACTS_FROM} where not u.is_admin${within(params)}\n          order by tc.expiration_date, tc.id`, params } }
  }
  // One part a group in the window (the critical group always is: `days` is at least 1).
  const parts: string[] = []
  const params: unknown[] = []
  for (const [, from, to] of GROUP_DAYS) {
    if (from === null && !q.include_expired) continue
    const upto = Math.min(to, q.days)
    if (from !== null && from > upto) continue
    params.push(today, at)
    let range = ''
    if (from !== null) (range += ' and tc.expiration_date >= ?::date + ?::int'), params.push(today, from)
    range += ' and tc.expiration_date <= ?::date + ?::int'
    params.push(today, upto)
    const filter = branchFilter(params)
    params.push(q.limit)
    parts.push(`(${FACTS_FROM} where not u.is_admin${range}${filter}\n          order by tc.expiration_date, tc.id limit ?)`)
  }
  const list = { sql: `select * from (${parts.join('\n union all ')}) d\n order by d.expiration_date, d.id`, params }
  if (keptGroupsAnswer(q)) return { list }
  const countParams: unknown[] = [today]
  const countFilter = within(countParams)
  return {
    list,
    counts: {
      sql: `select certs_badge(certs_days_left(tc.expiration_date, ?::date)) as badge, count(*)::int as n
              from technician_certifications tc join users u on u.id = tc.user_id and u.deleted_at is null
             where not u.is_admin${countFilter}
             group by 1`,
      params: countParams,
    },
  }
}

export interface TechnicianExpiries {
  user_id: string
  name: string
  branch: Branch | null
  department: Department | null
  /** The technician's certifications that expire (soonest first), with days left. */
  items: { id: number; certification_id: number; code: string; name: string; expiration_date: string; days_left: number }[]
}

/**
 * Each technician (of one branch and department when given) with their certifications that expire
 * within `horizonDays` or have expired, soonest first.
 */
export async function technicianExpiries(
  em: EntityManager,
  today: string,
  horizonDays: number,
  where: { branch?: Branch; department?: Department } = {},
): Promise<TechnicianExpiries[]> {
  const params: unknown[] = [today, today, horizonDays]
  let filter = ''
  if (where.branch) (filter += ' and u.branch = ?'), params.push(where.branch)
  if (where.department) (filter += ' and u.department = ?'), params.push(where.department)
  const rows = (await em.execute(
    `select u.id as user_id, u.name, u.branch, u.department,
            coalesce(jsonb_agg(jsonb_build_object('id', tc.id, 'certification_id', tc.certification_id, 'code', ct.code, 'name', ct.name,
                       'expiration_date', tc.expiration_date::text, 'days_left', certs_days_left(tc.expiration_date, ?::date))
                     order by tc.expiration_date, tc.id) filter (where tc.id is not null), '[]'::jsonb) as items
       from users u
       left join technician_certifications tc on tc.user_id = u.id and tc.expiration_date <= ?::date + ?::int
       left join certification_types ct on ct.id = tc.certification_id
      where ${TECHNICIAN_CONDITIONS.join(' and ')}${filter}
      group by u.id, u.name, u.branch, u.department
      order by u.name, u.id`,
    params,
  )) as (Omit<TechnicianExpiries, 'items'> & { items: TechnicianExpiries['items'] | string })[]
  return rows.map((r) => ({ ...r, items: typeof r.items === 'string' ? JSON.parse(r.items) : r.items }))
}
