import { BADGE_TONE, STATUS_TONE, type CertView, type Tone } from './cert-view.ts'

/**
 * A coloured pill whose text carries the meaning. With a `description` (which starts with the
 * pill's words) the pill shows it as a tooltip, and screen readers read it in full: the words the
 * pill does not show follow it, visually hidden, so nothing is read twice.
 */
export const Badge = ({ tone, children, description }: { tone: Tone; children: string; description?: string | null }) => {
  if (!description) return <span className={`ct-badge ct-tone--${tone}`}>{children}</span>
  const rest = description.startsWith(children) ? description.slice(children.length) : `: ${description}`
  return (
    <>
      <span title={description} className={`ct-badge ct-tone--${tone}`}>
        {children}
      </span>
      <span className="pk-visually-hidden">{rest}</span>
    </>
  )
}

/** The certification's status (learner §4) as a badge, with why it has it. */
export const StatusBadge = ({ view }: { view: Pick<CertView, 'status' | 'statusDescription'> }) => (
  <Badge tone={STATUS_TONE[view.status]} description={view.statusDescription}>
    {view.status}
  </Badge>
)

/** The expiration badge (expired, critical, warning, notice) with its words and why; nothing when none applies. */
export const ExpiryBadge = ({ view }: { view: CertView }) =>
  view.badge && view.badgeText ? (
    <Badge tone={BADGE_TONE[view.badge]} description={view.badgeDescription}>
      {view.badgeText}
    </Badge>
  ) : null
