import { formatRatio, formatUsd, ratioColour, TIER_LEVELS, tierLabel, type ScaleColour, type TechnicianProfile, type TierLevel, type UserCertification } from '@portal/contracts'
import { formatDate } from '@portal/ui-kit'

export type Requirement = TechnicianProfile['tier_requirements'][number]

/** The profile's certifications grouped by the tier of their type (learner §2: New Hire = 0, Tier 1-3), by name within a tier. */
export function groupByTier(certs: readonly UserCertification[]): { tier: TierLevel; label: string; certs: UserCertification[] }[] {
  return TIER_LEVELS.map((tier) => ({
    tier,
    label: tierLabel(tier),
    certs: certs.filter((c) => c.certification.tier_level === tier).sort((a, b) => a.certification.name.localeCompare(b.certification.name)),
  }))
}

/** The certification ids in the order the page shows them (to find the card after a deleted one). */
export const shownOrder = (certs: readonly UserCertification[]): number[] => groupByTier(certs).flatMap((g) => g.certs.map((c) => c.id))

export const NO_REVENUE = 'No revenue recorded'

export interface RevenueCard {
  label: string
  /** The figure, or "No revenue recorded": never a zero that was not recorded. */
  text: string
  recorded: boolean
  colour?: ScaleColour
}

/** The four revenue cards of learner §2; until revenue is recorded each says so instead of showing zeros. */
export function revenueCards(data: TechnicianProfile['revenue_data']): RevenueCard[] {
  const money = (label: string, v: number | null | undefined): RevenueCard =>
    v === null || v === undefined ? { label, text: NO_REVENUE, recorded: false } : { label, text: formatUsd(v), recorded: true }
  const ratio = data?.rev_pay_ratio ?? null
  return [
    money('Monthly Revenue', data?.monthly_revenue),
    money('Monthly Pay', data?.monthly_pay),
    ratio === null
      ? { label: 'Rev/Pay Ratio', text: NO_REVENUE, recorded: false }
      : { label: 'Rev/Pay Ratio', text: formatRatio(ratio), recorded: true, colour: ratioColour(ratio) },
    money('Yearly Revenue YTD', data ? data.yearly_revenue_ytd : null),
  ]
}

/** The tier panel: where the technician is, the tier whose requirements are listed and how far along they are. */
export function tierPanel(profile: TechnicianProfile) {
  const current = profile.tier.current_tier
  const progress = profile.next_tier_progress ?? profile.current_tier_progress
  const listed = progress.tier_level
  const requirements = profile.tier_requirements
    .filter((r) => r.tier_level === listed)
    .sort((a, b) => Number(b.is_required) - Number(a.is_required) || a.certification.name.localeCompare(b.certification.name))
  const atTop = profile.next_tier_progress === null
  return {
    currentLabel: tierLabel(current),
    atTop,
    heading: atTop ? `${tierLabel(current)} requirements` : `Progress to ${tierLabel(listed)}`,
    summary:
      progress.required_total === 0
        ? `${tierLabel(listed)} has no required certifications.`
        : `${progress.required_met} of ${progress.required_total} required certifications (${progress.percent}%)`,
    percent: progress.percent,
    requirements,
  }
}

/** The notifications switch's words: on, or paused until a date. */
export const notificationsText = (tier: TechnicianProfile['tier']): string =>
  tier.notifications_paused
    ? tier.notifications_paused_until
      ? `Paused until ${formatDate(tier.notifications_paused_until)}`
      : 'Paused'
    : 'On: you get e-mails before your certifications expire'

/** What the live region says after the switch was used. */
export const notificationsChanged = (paused: boolean, until: string | null): string => (paused ? `Notifications paused until ${formatDate(until)}.` : 'Notifications resumed.')

/** Focus target names of the profile (decision 0010). */
export const FOCUS = {
  add: 'add',
  upload: (id: number) => `upload-${id}`,
  view: (id: number) => `view-${id}`,
  remove: (id: number) => `delete-${id}`,
  card: (id: number) => `card-${id}`,
}
