import type { EntityManager } from '@mikro-orm/postgresql'
import {
  BRANCHES,
  compliancePercentage,
  type AssignmentFacts,
  type Branch,
  type BranchCompliance,
  type ComplianceFigures,
  type Department,
  type ExpirationBadgeKind,
} from '@portal/contracts'

/**
 * The certification ledger's reads (issue 23): every compliance figure of the portal (the team
 * dashboard and its export, the admin overview, Certification Notification Management, the weekly
 * report) is counted from the kept per-member figures (`team_member_figures`, decision 0036),
 * brought up to the company's today first, over the same technicians. So the screens and the
 * e-mails cannot disagree; `consistency.ts` checks the kept figures against the ledger itself.
 */

/**
 * Who counts as a technician on every compliance surface: every signed-up user identity knows who
 * is not an admin, managers included (a manager holds certifications and a tier like anyone).
 */
export const TECHNICIAN_CONDITIONS = ['u.deleted_at is null', 'not u.is_admin', 'u.name is not null'] as const

/** A compliance figures' filter: one branch and/or one department. */
export interface FiguresFilter {
  branch?: Branch | undefined
  department?: Department | undefined
}

/**
 * The kept figures' recompute for `today`: rows computed for a later day, or past the day one of
 * the member's certifications changes band. Nothing to do on most calls; the first read of a day
 * catches up with the certifications that expired or entered the 30-day window since.
 */
export const refreshStaleFiguresStatement = (today: string) => ({
  sql: `select certs_refresh_member_figures(array(select f.user_id from team_member_figures f where f.computed_on > ?::date or f.stale_on <= ?::date), ?::date)
    where exists (select 1 from team_member_figures f where f.computed_on > ?::date or f.stale_on <= ?::date)`,
  params: [today, today, today, today, today],
})

/**
 * The figures' statement (also run bare by the benchmark's ceiling): the technicians' kept figures
 * summed per branch, one pass over the kept rows (each carries its member's branch, department and
 * whether they count as a technician, recomputed when those change). With the certifications of
 * each expiry group, which Certification Notification Management counts from the same rows.
 */
export function figuresStatement(where: FiguresFilter = {}) {
  const conditions: string[] = ['f.technician']
  const params: unknown[] = []
  if (where.branch) {
    conditions.push('f.branch = ?')
    params.push(where.branch)
  }
  if (where.department) {
    conditions.push('f.department = ?')
    params.push(where.department)
  }
  return {
    sql: `select f.branch, count(*)::int as technicians,
              count(*) filter (where certs_has_no_expired(f.expired_certifications))::int as no_expired,
              count(*) filter (where certs_meets_requirements(f.completion_percentage))::int as requirements_met,
              coalesce(sum(f.expired_certifications), 0)::int as expired_certifications,
              coalesce(sum(f.expiring_soon), 0)::int as expiring_30_days,
              coalesce(sum(f.expiring_critical), 0)::int as expiring_critical,
              coalesce(sum(f.expiring_notice), 0)::int as expiring_notice
         from team_member_figures f
        where ${conditions.join(' and ')}
        group by f.branch`,
    params,
  }
}

interface FigureRow {
  branch: Branch | null
  technicians: number
  no_expired: number
  requirements_met: number
  expired_certifications: number
  expiring_30_days: number
  expiring_critical: number
  expiring_notice: number
}

/** Certifications per expiry group (the badge's bands) of a set of technicians. */
export type ExpiryGroupCounts = Record<ExpirationBadgeKind, number>

const figuresOf = (r: Omit<FigureRow, 'branch'>): ComplianceFigures => {
  const technicians = Number(r.technicians)
  const compliant = Number(r.no_expired)
  return {
    technicians,
    compliant,
    non_compliant: technicians - compliant,
    expired_certifications: Number(r.expired_certifications),
    expiring_30_days: Number(r.expiring_30_days),
    percentage: compliancePercentage(compliant, technicians),
    requirements_met: Number(r.requirements_met),
  }
}

const ZERO: Omit<FigureRow, 'branch'> = {
  technicians: 0,
  no_expired: 0,
  requirements_met: 0,
  expired_certifications: 0,
  expiring_30_days: 0,
  expiring_critical: 0,
  expiring_notice: 0,
}

/** The kept figures of a member the consistency check compares. */
export const KEPT_FIELDS = [
  'current_tier',
  'required_count',
  'met_count',
  'completion_percentage',
  'expired_certifications',
  'expiring_soon',
  'expiring_critical',
  'expiring_notice',
  'overdue_assignments',
] as const

/** A held certification with what the rules need of it. */
export interface HeldRow {
  user_id: string
  certification_id: number
  expiration_date: string | null
  verified_at: string | null
  file_name: string | null
  upload_required: boolean
}

/** The check's own reads (also run bare by the benchmark's ceiling): the technicians, every certification held, the kept figures. */
export const consistencyStatements = {
  members: `select u.id as user_id, u.name, u.branch, u.department, coalesce(t.current_tier, 0)::int as current_tier
         from users u left join technicians t on t.user_id = u.id
        where ${TECHNICIAN_CONDITIONS.join(' and ')}
        order by u.id`,
  held: `select tc.user_id, tc.certification_id, to_char(tc.expiration_date, 'YYYY-MM-DD') as expiration_date,
              to_char(tc.verified_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as verified_at, tc.file_name, ct.upload_required
         from technician_certifications tc join certification_types ct on ct.id = tc.certification_id`,
  // Issue 24: every current assignment's facts, as the state rule reads them.
  assignments: `select user_id, to_char(due_on, 'YYYY-MM-DD') as due_on, to_char(opens_on, 'YYYY-MM-DD') as opens_on,
              to_char(completed_on, 'YYYY-MM-DD') as completed_on, to_char(next_due_on, 'YYYY-MM-DD') as next_due_on,
              to_char(next_opens_on, 'YYYY-MM-DD') as next_opens_on, exempt, due_soon_days
         from member_assignments where not removed`,
  // `member`: 1 when the row keeps its member's branch, department and technician flag as they are now.
  kept: `select f.user_id, ${KEPT_FIELDS.map((f) => `f.${f}::int as ${f}`).join(', ')},
              (f.technician and f.branch is not distinct from u.branch and f.department is not distinct from u.department)::int as member
         from team_member_figures f join users u on u.id = f.user_id
        where ${TECHNICIAN_CONDITIONS.join(' and ')}`,
}

/** A technician as the consistency check recomputes them. */
export interface CheckedMember {
  user_id: string
  name: string
  branch: Branch | null
  department: Department | null
  current_tier: number
}

/** A member's kept row as the check compares it; `member` 1 when it keeps the member's branch, department and technician flag. */
export type KeptRow = { user_id: string } & Record<(typeof KEPT_FIELDS)[number] | 'member', number>

export const ledgerRepository = {
  /** The technicians, by id (the consistency check's). */
  checkedMembers: async (em: EntityManager) => (await em.execute(consistencyStatements.members)) as CheckedMember[],
  /** Every certification held, with its type's proof rule. */
  everyHeld: async (em: EntityManager) => (await em.execute(consistencyStatements.held)) as HeldRow[],
  /** Every current assignment of the projection (issue 24), with its holder. */
  everyAssignment: async (em: EntityManager) => (await em.execute(consistencyStatements.assignments)) as (AssignmentFacts & { user_id: string })[],
  /** The technicians' kept rows. */
  keptRows: async (em: EntityManager) => (await em.execute(consistencyStatements.kept)) as KeptRow[],

  async refresh(em: EntityManager, today: string) {
    const { sql, params } = refreshStaleFiguresStatement(today)
    await em.execute(sql, params)
  },

  /**
   * Compliance of the organisation (or one branch and department) and of each branch: every branch
   * in the spec's order, then "No branch" when technicians without one exist, so the rows add up
   * to the organisation's figures. `groups(branch?)`: the certifications of each expiry group
   * (expired, critical 0-10 days, warning 11-30, notice 31-60) of those technicians, or of one
   * branch's, counted from the same kept rows.
   */
  async figures(
    em: EntityManager,
    today: string,
    where: FiguresFilter = {},
  ): Promise<{ organisation: ComplianceFigures; branches: BranchCompliance[]; groups: (branch?: Branch) => ExpiryGroupCounts }> {
    await this.refresh(em, today)
    const { sql, params } = figuresStatement(where)
    const rows = (await em.execute(sql, params)) as FigureRow[]
    const sumOf = (of: readonly FigureRow[]) =>
      of.reduce(
        (a, r) => ({
          technicians: a.technicians + Number(r.technicians),
          no_expired: a.no_expired + Number(r.no_expired),
          requirements_met: a.requirements_met + Number(r.requirements_met),
          expired_certifications: a.expired_certifications + Number(r.expired_certifications),
          expiring_30_days: a.expiring_30_days + Number(r.expiring_30_days),
          expiring_critical: a.expiring_critical + Number(r.expiring_critical),
          expiring_notice: a.expiring_notice + Number(r.expiring_notice),
        }),
        ZERO,
      )
    const byBranch = new Map(rows.map((r) => [r.branch, r]))
    const noBranch = byBranch.get(null)
    return {
      organisation: figuresOf(sumOf(rows)),
      branches: [...BRANCHES.map((branch) => ({ branch, ...figuresOf(byBranch.get(branch) ?? ZERO) })), ...(noBranch ? [{ branch: null, ...figuresOf(noBranch) }] : [])],
      groups: (branch) => {
        const s = sumOf(branch ? rows.filter((r) => r.branch === branch) : rows)
        return { expired: s.expired_certifications, critical: s.expiring_critical, warning: s.expiring_30_days - s.expiring_critical, notice: s.expiring_notice }
      },
    }
  },
}
