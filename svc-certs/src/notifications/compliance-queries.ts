import type { EntityManager } from '@mikro-orm/postgresql'
import { BRANCHES, EXPIRY_BANDS, compliancePercentage, type Branch, type ComplianceFigures, type Department } from '@portal/contracts'

/** Technicians are every non-admin user identity knows (as in the admin overview). */
const TECHNICIANS = 'u.deleted_at is null and not u.is_admin'

interface FigureRow {
  branch: Branch | null
  technicians: number
  non_compliant: number
  expired_certifications: number
  expiring_30_days: number
}

export const figuresOf = (r: Omit<FigureRow, 'branch'>): ComplianceFigures => {
  const technicians = Number(r.technicians)
  const nonCompliant = Number(r.non_compliant)
  return {
    technicians,
    compliant: technicians - nonCompliant,
    non_compliant: nonCompliant,
    expired_certifications: Number(r.expired_certifications),
    expiring_30_days: Number(r.expiring_30_days),
    percentage: compliancePercentage(technicians - nonCompliant, technicians),
  }
}

/**
 * Compliance (admin §9): technicians without an expired certification over all technicians, for
 * the organisation and each branch (every branch listed, in the spec's order), optionally within
 * one branch and department.
 */
export async function complianceFigures(em: EntityManager, today: string, where: { branch?: Branch; department?: Department } = {}) {
  const params: unknown[] = [today, today, today]
  let filter = ''
  if (where.branch) (filter += ' and u.branch = ?'), params.push(where.branch)
  if (where.department) (filter += ' and u.department = ?'), params.push(where.department)
  const rows = (await em.execute(
    `select u.branch, count(*)::int as technicians, count(*) filter (where x.expired > 0)::int as non_compliant,
            coalesce(sum(x.expired), 0)::int as expired_certifications, coalesce(sum(x.soon), 0)::int as expiring_30_days
       from users u
       cross join lateral (
         select count(*) filter (where tc.expiration_date < ?::date) as expired,
                count(*) filter (where tc.expiration_date >= ?::date and tc.expiration_date <= ?::date + ${EXPIRY_BANDS.warning}) as soon
           from technician_certifications tc where tc.user_id = u.id) x
      where ${TECHNICIANS}${filter}
      group by u.branch`,
    params,
  )) as FigureRow[]
  const zero = { technicians: 0, non_compliant: 0, expired_certifications: 0, expiring_30_days: 0 }
  const sum = rows.reduce(
    (a, r) => ({
      technicians: a.technicians + Number(r.technicians),
      non_compliant: a.non_compliant + Number(r.non_compliant),
      expired_certifications: a.expired_certifications + Number(r.expired_certifications),
      expiring_30_days: a.expiring_30_days + Number(r.expiring_30_days),
    }),
    zero,
  )
  const byBranch = new Map(rows.map((r) => [r.branch, r]))
  return {
    organisation: figuresOf(sum),
    branches: BRANCHES.map((branch) => ({ branch, ...figuresOf(byBranch.get(branch) ?? zero) })),
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
                       'expiration_date', tc.expiration_date::text, 'days_left', tc.expiration_date - ?::date)
                     order by tc.expiration_date, tc.id) filter (where tc.id is not null), '[]'::jsonb) as items
       from users u
       left join technician_certifications tc on tc.user_id = u.id and tc.expiration_date <= ?::date + ?::int
       left join certification_types ct on ct.id = tc.certification_id
      where ${TECHNICIANS}${filter}
      group by u.id, u.name, u.branch, u.department
      order by u.name, u.id`,
    params,
  )) as (Omit<TechnicianExpiries, 'items'> & { items: TechnicianExpiries['items'] | string })[]
  return rows.map((r) => ({ ...r, items: typeof r.items === 'string' ? JSON.parse(r.items) : r.items }))
}
