import { COMPLIANCE_MEASURES, type CertificationDashboard, type ComplianceFigures } from '@portal/contracts'
import { DataTable, TableHead } from '@portal/ui-kit'
import { Badge } from '../shared/index.ts'
import { complianceTone } from './notification-view.ts'

/** A compliance percentage in the spec's colour; the number carries the meaning, the colour repeats it. */
export const CompliancePercent = ({ percent }: { percent: number }) => <Badge tone={complianceTone(percent)}>{`${percent}%`}</Badge>

const figures = (f: ComplianceFigures): [string, string][] => [
  ['Technicians', String(f.technicians)],
  [COMPLIANCE_MEASURES.noExpired.label, String(f.compliant)],
  [COMPLIANCE_MEASURES.requirementsMet.label, String(f.requirements_met ?? 0)],
  ['Expired Certifications', String(f.expired_certifications)],
  ['Expiring Within 30 Days', String(f.expiring_30_days)],
]

/** The row of technicians without a branch yet (new hires): counted, never dropped. */
export const NO_BRANCH = 'No branch'

/**
 * The organisation's and each branch's compliance (admin §2, §9): technicians without expired
 * certifications over all technicians, rounded, 100 when there are none; ≥ 90 green, ≥ 75 yellow,
 * else red. The branch rows add up to the organisation's (technicians without a branch have their
 * own row); "Requirements met" is the team dashboard's Compliant, shown beside it so the two
 * measures are never taken for one another (issue 23).
 */
export const ComplianceOverview = ({ compliance }: { compliance: CertificationDashboard['compliance'] }) => {
  const org = compliance.organisation
  return (
    <section className="pk-card pk-stack" aria-labelledby="cn-compliance">
      <h2 id="cn-compliance" className="pk-m0">
        Compliance Overview
      </h2>
      <p className="pk-muted pk-m0" id="cn-compliance-help">
        {`Compliance: technicians with no expired certification, out of all technicians. ${COMPLIANCE_MEASURES.technicians} ${COMPLIANCE_MEASURES.requirementsMet.label}: ${COMPLIANCE_MEASURES.requirementsMet.help.charAt(0).toLowerCase()}${COMPLIANCE_MEASURES.requirementsMet.help.slice(1)}`}
      </p>
      <dl className="ct-figures">
        <div>
          <dt>Organisation Compliance</dt>
          <dd aria-describedby="cn-compliance-help">
            <CompliancePercent percent={org.percentage} /> <span className="ct-figure-of">{`${org.compliant} of ${org.technicians}`}</span>
          </dd>
        </div>
        {figures(org).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <DataTable className="pk-table--stack">
        <caption className="pk-visually-hidden">Compliance by branch</caption>
        <TableHead
          columns={[
            'Branch',
            'Compliance',
            'Technicians',
            COMPLIANCE_MEASURES.noExpired.label,
            COMPLIANCE_MEASURES.requirementsMet.label,
            'Expired Certifications',
            'Expiring Within 30 Days',
          ]}
        />
        <tbody>
          {compliance.branches.map((b) => (
            <tr key={b.branch ?? NO_BRANCH}>
              <th scope="row">{b.branch ?? NO_BRANCH}</th>
              <td data-label="Compliance">
                <CompliancePercent percent={b.percentage} />
              </td>
              <td data-label="Technicians">{b.technicians}</td>
              <td data-label={COMPLIANCE_MEASURES.noExpired.label}>{b.compliant}</td>
              <td data-label={COMPLIANCE_MEASURES.requirementsMet.label}>{b.requirements_met ?? 0}</td>
              <td data-label="Expired Certifications">{b.expired_certifications}</td>
              <td data-label="Expiring Within 30 Days">{b.expiring_30_days}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </section>
  )
}
