import { tierLabel, type CertificationSummary, type CertificationsOverview } from '@portal/contracts'
// The rules alone, without the contracts' schemas (the dashboards' first load stays small).
import { COMPLIANCE_MEASURES, complianceColour, compliancePercentage } from '@portal/contracts/cert-rules'

/** A figure of a dashboard card. */
export interface Figure {
  label: string
  value: string
  tone?: 'green' | 'yellow' | 'red'
  /** What the figure counts, read out with it and shown under it. */
  help?: string
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

/** A measure's percentage (admin §9's rounding, 100 without technicians) and colour (≥ 90 green, ≥ 75 yellow, else red). */
export function compliance(count: number, technicians: number): { percent: number; tone: 'green' | 'yellow' | 'red' } {
  const percent = compliancePercentage(count, technicians)
  return { percent, tone: complianceColour(percent) }
}

/** "4 of 5 (80%)": a measure's count over the technicians, with its percentage. */
const measure = (label: string, help: string, count: number, technicians: number): Figure => {
  const c = compliance(count, technicians)
  return { label, value: `${count} of ${technicians} (${c.percent}%)`, tone: c.tone, help }
}

/** The four cards of the admin dashboard's Certifications tab (admin §2), with the overview's figures where they mean something. */
export function adminCards(o: CertificationsOverview | undefined) {
  return [
    {
      key: 'team',
      title: 'Team Management',
      text: 'Team certification compliance, filters and the team table.',
      figures: o
        ? ([
            { label: 'Technicians', value: String(o.technicians), help: COMPLIANCE_MEASURES.technicians },
            measure(COMPLIANCE_MEASURES.requirementsMet.label, COMPLIANCE_MEASURES.requirementsMet.help, o.requirements_met, o.technicians),
          ] satisfies Figure[])
        : [],
      action: { label: 'Open Team Dashboard', to: '/manager/dashboard' },
    },
    {
      key: 'admin',
      title: 'Certification Admin',
      text: 'Manage certification types and tier requirements.',
      figures: o
        ? ([
            { label: 'Active Types', value: String(o.types_active) },
            { label: 'All Types', value: String(o.types_total) },
          ] satisfies Figure[])
        : [],
      action: { label: 'Manage Certifications', to: '/admin/certifications' },
    },
    {
      key: 'notifications',
      title: 'Notification Settings',
      text: 'Certification expiration emails.',
      figures: o
        ? ([
            measure(COMPLIANCE_MEASURES.noExpired.label, COMPLIANCE_MEASURES.noExpired.help, o.no_expired, o.technicians),
            { label: 'Expiring Soon', value: String(o.expiring_soon), tone: o.expiring_soon > 0 ? 'yellow' : undefined },
            { label: 'Expired', value: String(o.expired), tone: o.expired > 0 ? 'red' : undefined },
          ] satisfies Figure[])
        : [],
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
