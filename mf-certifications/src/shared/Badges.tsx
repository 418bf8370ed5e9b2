import type { CertificationStatus } from '@portal/contracts'
import { BADGE_TONE, STATUS_TONE, type CertView, type Tone } from './cert-view.ts'

/** A coloured pill whose text carries the meaning. */
export const Badge = ({ tone, children }: { tone: Tone; children: string }) => <span className={`ct-badge ct-tone--${tone}`}>{children}</span>

/** The certification's status (learner §4) as a badge. */
export const StatusBadge = ({ status }: { status: CertificationStatus }) => <Badge tone={STATUS_TONE[status]}>{status}</Badge>

/** The expiration badge (expired, critical, warning, notice) with its words; nothing when none applies. */
export const ExpiryBadge = ({ view }: { view: CertView }) =>
  view.badge && view.badgeText ? <Badge tone={BADGE_TONE[view.badge]}>{view.badgeText}</Badge> : null
