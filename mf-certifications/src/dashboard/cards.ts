import { tierLabel, type CertificationSummary, type CertificationsOverview } from '@portal/contracts'

/** A figure of a dashboard card. */
export interface Figure {
  label: string
  value: string
  tone?: 'green' | 'yellow' | 'red'
}

/** Certification Tracking (learner §2) from GET /technician/summary. */
export function trackingFigures(s: CertificationSummary): Figure[] {
  return [
    { label: 'Certifications', value: String(s.total) },
    { label: 'Valid', value: String(s.valid) },
    { label: 'Expiring Soon', value: String(s.expiring_soon), tone: s.expiring_soon > 0 ? 'yellow' : undefined },
    { label: 'Expired', value: String(s.expired), tone: s.expired > 0 ? 'red' : undefined },
    {
      label: `Required for ${tierLabel(s.current_tier)}`,
      value: s.required_total === 0 ? 'None' : `${s.required_met} of ${s.required_total}`,
      tone: s.required_total > 0 && s.required_met < s.required_total ? 'yellow' : undefined,
    },
  ]
}

/** The line under My Certifications: the tier and how far the next one is. */
export function myCertificationsLine(s: CertificationSummary): string {
  const held = `${s.total} certification${s.total === 1 ? '' : 's'}`
  const next = s.next_tier_progress
  if (!next) return `${tierLabel(s.current_tier)} (the highest tier) · ${held}`
  return `${tierLabel(s.current_tier)} · ${held} · ${next.percent}% of the way to ${tierLabel(next.tier_level)}`
}

/**
 * Compliance percentage of admin §9: technicians without expired certifications over all
 * technicians, rounded; 100 when there are none. Colours: ≥ 90 green, ≥ 75 yellow, else red.
 */
export function compliance(o: Pick<CertificationsOverview, 'technicians' | 'compliant'>): { percent: number; tone: 'green' | 'yellow' | 'red' } {
  // The rule of the contracts' compliancePercentage/complianceColour, written out: importing them
  // would bring the notification schemas into the dashboards' first load (measured: +2.4 KB gzip).
  const percent = o.technicians === 0 ? 100 : Math.round((o.compliant / o.technicians) * 100)
  return { percent, tone: percent >= 90 ? 'green' : percent >= 75 ? 'yellow' : 'red' }
}

/** The four cards of the admin dashboard's Certifications tab (admin §2), with the overview's figures where they mean something. */
export function adminCards(o: CertificationsOverview | undefined) {
  const c = o ? compliance(o) : null
  return [
    {
      key: 'team',
      title: 'Team Management',
      text: 'Team certification compliance, filters and the team table.',
      figures: o && c ? [
        { label: 'Technicians', value: String(o.technicians) },
        { label: 'Compliant', value: `${c.percent}%`, tone: c.tone },
      ] satisfies Figure[] : [],
      action: { label: 'Open Team Dashboard', to: '/manager/dashboard' },
    },
    {
      key: 'admin',
      title: 'Certification Admin',
      text: 'Manage certification types and tier requirements.',
      figures: o ? [
        { label: 'Active Types', value: String(o.types_active) },
        { label: 'All Types', value: String(o.types_total) },
      ] satisfies Figure[] : [],
      action: { label: 'Manage Certifications', to: '/admin/certifications' },
    },
    {
      key: 'notifications',
      title: 'Notification Settings',
      text: 'Certification expiration emails.',
      figures: o ? [
        { label: 'Expiring Soon', value: String(o.expiring_soon), tone: o.expiring_soon > 0 ? 'yellow' : undefined },
        { label: 'Expired', value: String(o.expired), tone: o.expired > 0 ? 'red' : undefined },
      ] satisfies Figure[] : [],
      action: { label: 'Open Notification Settings', to: '/admin/certification-notifications' },
    },
    {
      key: 'revenue',
      title: 'Revenue Entry',
      text: 'Enter monthly revenue and pay for technicians.',
      figures: [] as Figure[],
      action: { label: 'Open Revenue Entry', to: '/admin/revenue-entry' },
    },
  ]
}
