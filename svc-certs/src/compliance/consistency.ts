import type { EntityManager } from '@mikro-orm/postgresql'
import {
  BRANCHES,
  assignmentState,
  compliancePercentage,
  completionPercent,
  daysUntil,
  expirationBadge,
  hasNoExpired,
  isExpired,
  isExpiringSoon,
  meetsRequirements,
  requirementMet,
  type Branch,
  type ConsistencyDifference,
  type ConsistencyReport,
  type Department,
  type StatusFacts,
  type TeamSummary,
  type TierLevel,
} from '@portal/contracts'
import type { Actor } from '@portal/server-kit'
import { certificationTypeRepository } from '../certification-types/index.ts'
import { complianceRequirements } from './requirements.ts'
import { KEPT_FIELDS as FIELDS, ledgerRepository } from './ledger.repository.ts'

/** Differences listed at most (the count says how many there were). */
const MAX_LISTED = 200

/** A technician's figures as the rules say them from the ledger itself. */
interface Recomputed {
  user_id: string
  name: string
  branch: Branch | null
  department: Department | null
  current_tier: number
  required_count: number
  met_count: number
  completion_percentage: number
  expired_certifications: number
  expiring_soon: number
  expiring_critical: number
  expiring_notice: number
  overdue_assignments: number
}

/**
 * Every technician's figures computed in TypeScript from the certifications, tiers, departments
 * and requirements themselves (contracts' cert-rules and `complianceRequirements`), independently
 * of the SQL that keeps `team_member_figures`.
 */
async function recompute(em: EntityManager, today: string): Promise<Recomputed[]> {
  const [members, held, requirements, assignments] = await Promise.all([
    ledgerRepository.checkedMembers(em),
    ledgerRepository.everyHeld(em),
    certificationTypeRepository.requirements(em),
    ledgerRepository.everyAssignment(em),
  ])
  // Issue 24: each technician's assignments overdue today by the contracts' rule.
  const overdue = new Map<string, number>()
  for (const a of assignments)
    if (assignmentState({ ...a, exempt: Boolean(a.exempt), due_soon_days: Number(a.due_soon_days) }, today) === 'overdue') overdue.set(a.user_id, (overdue.get(a.user_id) ?? 0) + 1)
  const byUser = new Map<string, Map<number, StatusFacts>>()
  for (const h of held) {
    const facts: StatusFacts = { expiration_date: h.expiration_date, verified_at: h.verified_at, file_name: h.file_name, certification: { upload_required: h.upload_required } }
    const mine = byUser.get(h.user_id) ?? new Map<number, StatusFacts>()
    mine.set(Number(h.certification_id), facts)
    byUser.set(h.user_id, mine)
  }
  return members.map((m) => {
    const mine = byUser.get(m.user_id) ?? new Map<number, StatusFacts>()
    const counting = complianceRequirements(requirements, { currentTier: Number(m.current_tier) as TierLevel, department: m.department })
    const met = counting.filter((r) => requirementMet(mine.get(r.certification_id), today, { managerView: true })).length
    const days = [...mine.values()].flatMap((c) => (c.expiration_date === null ? [] : [daysUntil(c.expiration_date, today)]))
    return {
      ...m,
      current_tier: Number(m.current_tier),
      required_count: counting.length,
      met_count: met,
      completion_percentage: completionPercent(met, counting.length),
      expired_certifications: days.filter(isExpired).length,
      expiring_soon: days.filter(isExpiringSoon).length,
      expiring_critical: days.filter((d) => expirationBadge(d) === 'critical').length,
      expiring_notice: days.filter((d) => expirationBadge(d) === 'notice').length,
      overdue_assignments: overdue.get(m.user_id) ?? 0,
    }
  })
}

/** The figures of a set of technicians, as every surface counts them. */
function totals(rows: readonly Recomputed[]) {
  const technicians = rows.length
  const noExpired = rows.filter((r) => hasNoExpired(r.expired_certifications)).length
  return {
    technicians,
    compliant: noExpired,
    non_compliant: technicians - noExpired,
    requirements_met: rows.filter((r) => meetsRequirements(r.completion_percentage)).length,
    expired_certifications: rows.reduce((n, r) => n + r.expired_certifications, 0),
    expiring_30_days: rows.reduce((n, r) => n + r.expiring_soon, 0),
    percentage: compliancePercentage(noExpired, technicians),
  }
}

/**
 * GET /admin/certifications/consistency (issue 23): recomputes every technician's figures from the
 * ledger in TypeScript and compares them with the kept figures (the team dashboard, its export and
 * the member rows) and with what Certification Notification Management, the admin overview and an
 * admin's team summary report. An empty `differences` is the proof the screens agree.
 */
export async function consistencyReport(
  em: EntityManager,
  today: string,
  at: Date,
  admin: Actor,
  /** The team dashboard's summary as `admin` sees it (the team feature's `adminTeamSummary`). */
  teamSummary: (em: EntityManager, admin: Actor, today: string) => Promise<TeamSummary>,
): Promise<ConsistencyReport> {
  await ledgerRepository.refresh(em, today)
  const [ledger, kept, dashboard, team] = await Promise.all([
    recompute(em.fork(), today),
    ledgerRepository.keptRows(em.fork()),
    ledgerRepository.figures(em.fork(), today),
    teamSummary(em.fork(), admin, today),
  ])
  const differences: ConsistencyDifference[] = []
  const differ = (surface: string, key: string, field: string, shown: number | null, expected: number | null) => {
    if (shown !== expected) differences.push({ surface, key, field, shown, expected })
  }

  const keptBy = new Map(kept.map((k) => [k.user_id, k]))
  for (const r of ledger) {
    const k = keptBy.get(r.user_id)
    const key = `${r.name} (${r.user_id})`
    if (!k) {
      differ('Team member figures', key, 'row', null, 1)
      continue
    }
    for (const f of FIELDS) differ('Team member figures', key, f, Number(k[f]), r[f])
    differ('Team member figures', key, 'branch, department and technician', Number(k.member), 1)
  }

  const organisation = totals(ledger)
  for (const [field, value] of Object.entries(organisation))
    differ('Certification Notification Management', 'Organisation', field, Number(dashboard.organisation[field as keyof typeof organisation] ?? null), value)
  for (const branch of [...BRANCHES, null] as const) {
    const rows = ledger.filter((r) => r.branch === branch)
    const shown = dashboard.branches.find((b) => b.branch === branch)
    if (branch === null && rows.length === 0 && !shown) continue
    const expected = totals(rows)
    for (const [field, value] of Object.entries(expected))
      differ('Certification Notification Management', branch ?? 'No branch', field, shown ? Number(shown[field as keyof typeof expected] ?? null) : null, value)
  }

  // Its groups' counts (the screen's window, 60 days with the expired ones), from the same kept rows.
  const groups = dashboard.groups()
  const expected = {
    expired: ledger.reduce((n, r) => n + r.expired_certifications, 0),
    critical: ledger.reduce((n, r) => n + r.expiring_critical, 0),
    warning: ledger.reduce((n, r) => n + r.expiring_soon - r.expiring_critical, 0),
    notice: ledger.reduce((n, r) => n + r.expiring_notice, 0),
  }
  for (const [group, value] of Object.entries(expected)) differ('Certification Notification Management', 'Counts', group, groups[group as keyof typeof groups], value)

  // An admin's team is every technician but the admin themself (admins are never technicians).
  const s = team
  differ('Team dashboard (admin)', 'Summary', 'total_team', s.total_team, organisation.technicians)
  differ('Team dashboard (admin)', 'Summary', 'compliant', s.compliant, organisation.requirements_met)
  differ('Team dashboard (admin)', 'Summary', 'expired', s.expired, organisation.expired_certifications)
  differ('Team dashboard (admin)', 'Summary', 'expiring_soon', s.expiring_soon, organisation.expiring_30_days)
  const avg = ledger.length === 0 ? null : Math.round(ledger.reduce((n, r) => n + r.completion_percentage, 0) / ledger.length)
  differ('Team dashboard (admin)', 'Summary', 'avg_progress', s.avg_progress, avg)
  differ('Team dashboard (admin)', 'Summary', 'overdue_members', s.overdue_members, ledger.filter((r) => r.overdue_assignments > 0).length)
  differ(
    'Team dashboard (admin)',
    'Summary',
    'overdue_assignments',
    s.overdue_assignments,
    ledger.reduce((n, r) => n + r.overdue_assignments, 0),
  )

  return {
    consistent: differences.length === 0,
    as_of: today,
    checked_at: at.toISOString(),
    technicians: ledger.length,
    difference_count: differences.length,
    differences: differences.slice(0, MAX_LISTED),
  }
}
