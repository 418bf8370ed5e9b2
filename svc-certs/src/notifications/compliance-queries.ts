import type { EntityManager } from '@mikro-orm/postgresql'
import type { Branch, Department } from '@portal/contracts'
import { TECHNICIAN_CONDITIONS } from '../compliance/ledger.repository.ts'
import { FACTS_FROM } from './expiry-check.ts'

/**
 * Certification Notification Management's list (also run bare by the benchmark's ceiling): the
 * certifications expiring within `days` of `today` (and the expired ones unless left out), with
 * what a row shows, soonest first.
 */
export function dashboardStatement(today: string, at: Date, q: { days: number; include_expired: boolean; branch?: Branch | undefined; limit?: number | undefined }) {
  const params: unknown[] = [today, at, today, q.days]
  let filter = ''
  if (!q.include_expired) (filter += ' and tc.expiration_date >= ?::date'), params.push(today)
  if (q.branch) (filter += ' and u.branch = ?'), params.push(q.branch)
  const all = `${FACTS_FROM} where not u.is_admin and tc.expiration_date <= ?::date + ?::int${filter}`
  if (q.limit === undefined) return { sql: `${all}\n          order by tc.expiration_date, tc.id`, params }
  // The first `limit` of each group (its badge, as `expirationBadge` groups them), with the group's total.
  return {
    sql: `select x.* from (
            select f.*, count(*) over (partition by f.badge) as group_total,
                   row_number() over (partition by f.badge order by f.expiration_date, f.id) as n
              from (select a.*, certs_badge(a.days_left) as badge from (${all}) a) f
             where f.badge is not null) x
          where x.n <= ? order by x.expiration_date, x.id`,
    params: [...params, q.limit],
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
