import { completionPercent, requirementMet, type Department, type StatusFacts, type TierLevel } from '@portal/contracts'

/** What the rules need of a tier requirement and its type. */
export interface RequirementFacts {
  tier_level: TierLevel
  is_required: boolean
  certification_id: number
  certification: { department: Department | null; is_active: boolean }
}

/** Whether a type applies to a technician of this department: types for every department do; a technician without a department has only those. */
export const appliesToDepartment = (type: { department?: Department | null }, department: Department | null): boolean =>
  (type.department ?? null) === null || type.department === department

/**
 * The requirements shown to a technician (every tier's): those on active types that apply to
 * their department.
 */
export const requirementsFor = <R extends RequirementFacts>(all: readonly R[], department: Department | null): R[] =>
  all.filter((r) => r.certification.is_active && appliesToDepartment(r.certification, department))

/**
 * The requirements that count for a technician's compliance (decision 0015): the required ones of
 * every tier from 0 up to their current tier (tiers are cumulative: a Tier 2 technician still
 * needs the New Hire and Tier 1 certifications), on active types that apply to their department.
 * Optional requirements never count. The profile's summary, the admin overview and the team
 * view all use this one rule.
 */
export const complianceRequirements = <R extends RequirementFacts>(all: readonly R[], tech: { currentTier: TierLevel; department: Department | null }): R[] =>
  requirementsFor(all, tech.department).filter((r) => r.is_required && r.tier_level <= tech.currentTier)

/** Met and total of a set of requirements, given the technician's certifications by type id. */
export function progressOf(
  reqs: readonly RequirementFacts[],
  held: ReadonlyMap<number, StatusFacts>,
  today: string,
  opts: { managerView?: boolean } = {},
): { total: number; met: number; percent: number } {
  const total = reqs.length
  const met = reqs.filter((r) => requirementMet(held.get(r.certification_id), today, opts)).length
  return { total, met, percent: completionPercent(met, total) }
}

/** Progress of one tier's own required certifications (the profile's current and next tier). */
export function tierProgress(reqs: readonly RequirementFacts[], held: ReadonlyMap<number, StatusFacts>, tier: TierLevel, today: string, opts: { managerView?: boolean } = {}) {
  const { total, met, percent } = progressOf(
    reqs.filter((r) => r.is_required && r.tier_level === tier),
    held,
    today,
    opts,
  )
  return { tier_level: tier, required_total: total, required_met: met, percent }
}
