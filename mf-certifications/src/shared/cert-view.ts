import { formatDate } from '@portal/ui-kit'
import {
  certificationStatus,
  daysUntil,
  EXPIRY_BANDS,
  expirationBadge,
  type CertificationStatusKind as CertificationStatus,
  type ExpirationBadgeKind as ExpirationBadge,
  type StatusFacts,
} from '@portal/contracts/cert-rules'
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

/** What the status and badge descriptions read of a held certification, beyond the status rule's facts. */
export interface ViewFacts extends StatusFacts {
  uploaded_at?: string | null
}

/** How a held certification shows today: the contracts' status and badge rules, and the badges' words. */
export interface CertView {
  status: CertificationStatus
  /** Why the status is what it is: "Expired 3 days ago: expiry Nov 22, 2026". Starts with the status. */
  statusDescription: string
  /** Days to the expiration date (negative once passed); null for lifetime certifications. */
  days: number | null
  badge: ExpirationBadge | null
  /** "Critical: expires in 5 days", "Expired 3 days ago"; null without a badge. */
  badgeText: string | null
  /** Why the badge shows: "Critical: expires in 5 days (Nov 30, 2026); critical from 10 days before expiry". Starts with `badgeText`. */
  badgeDescription: string | null
}

export const badgeText = (badge: ExpirationBadge, days: number): string =>
  badge === 'expired' ? `Expired ${relativeDays(days)}` : `${BADGE_LABEL[badge]}: expires ${relativeDays(days)}`

/** "Expired 3 days ago: expiry Nov 22, 2026" (the expiration date is the last valid day). */
const expiredDescription = (expiration: string, days: number) => `Expired ${relativeDays(days)}: expiry ${formatDate(expiration)}`

/** Why an expiration badge shows: the date, and the band of learner §4 it falls in. */
export function badgeDescription(badge: ExpirationBadge, days: number, expiration: string): string {
  if (badge === 'expired') return expiredDescription(expiration, days)
  const date = days === 0 ? `${formatDate(expiration)}, its last valid day` : formatDate(expiration)
  return `${badgeText(badge, days)} (${date}); ${BADGE_LABEL[badge].toLowerCase()} from ${EXPIRY_BANDS[badge]} days before expiry`
}

/**
 * Why a held certification has its status on `today` (learner §4's rule, in the order it decides).
 * How long a valid one lasts is the card's Expires and the expiration badge's to say.
 */
export function statusDescription(c: ViewFacts, status: CertificationStatus, today: string): string {
  switch (status) {
    case 'Expired':
      return expiredDescription(c.expiration_date!, daysUntil(c.expiration_date!, today))
    case 'Verified':
      return `Verified on ${formatDate(c.verified_at)}`
    case 'Uploaded':
      return `Uploaded: proof ${c.file_name}${c.uploaded_at ? ` uploaded ${formatDate(c.uploaded_at)}` : ''}, not verified yet`
    case 'Not Uploaded':
      return 'Not Uploaded: this type needs a proof file and none is uploaded yet'
    case 'Completed':
      return 'Completed: this type needs no proof file'
  }
}

/** Status and expiration badge of a held certification on `today` (rules of learner §4, from the contracts), with why. */
export function certView(c: ViewFacts, today: string): CertView {
  const days = c.expiration_date === null ? null : daysUntil(c.expiration_date, today)
  const badge = expirationBadge(days)
  const status = certificationStatus(c, today)
  const withBadge = badge !== null && days !== null && c.expiration_date !== null
  return {
    status,
    statusDescription: statusDescription(c, status, today),
    days,
    badge,
    badgeText: withBadge ? badgeText(badge, days) : null,
    badgeDescription: withBadge ? badgeDescription(badge, days, c.expiration_date!) : null,
  }
}
