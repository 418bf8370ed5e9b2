import { certificationStatus, daysUntil, expirationBadge, type CertificationStatus, type ExpirationBadge, type StatusFacts } from '@portal/contracts'
import { relativeDays } from './format.ts'

/** Colour families of the badges; every badge also says its meaning in words (never colour alone). */
export type Tone = 'red' | 'orange' | 'yellow' | 'blue' | 'green' | 'grey'

/** Expiration badge colours of learner §4: expired and critical red, warning yellow, notice blue. */
export const BADGE_TONE: Record<ExpirationBadge, Tone> = { expired: 'red', critical: 'red', warning: 'yellow', notice: 'blue' }
const BADGE_LABEL: Record<Exclude<ExpirationBadge, 'expired'>, string> = { critical: 'Critical', warning: 'Warning', notice: 'Notice' }

export const STATUS_TONE: Record<CertificationStatus, Tone> = {
  Expired: 'red',
  'Not Uploaded': 'yellow',
  Uploaded: 'blue',
  Verified: 'green',
  Completed: 'green',
}

/** How a held certification shows today: the contracts' status and badge rules, and the badge's words. */
export interface CertView {
  status: CertificationStatus
  /** Days to the expiration date (negative once passed); null for lifetime certifications. */
  days: number | null
  badge: ExpirationBadge | null
  /** "Critical: expires in 5 days", "Expired 3 days ago"; null without a badge. */
  badgeText: string | null
}

export const badgeText = (badge: ExpirationBadge, days: number): string =>
  badge === 'expired' ? `Expired ${relativeDays(days)}` : `${BADGE_LABEL[badge]}: expires ${relativeDays(days)}`

/** Status and expiration badge of a held certification on `today` (rules of learner §4, from the contracts). */
export function certView(c: StatusFacts, today: string): CertView {
  const days = c.expiration_date === null ? null : daysUntil(c.expiration_date, today)
  const badge = expirationBadge(days)
  return { status: certificationStatus(c, today), days, badge, badgeText: badge && days !== null ? badgeText(badge, days) : null }
}
