import type { CertificationDashboard, ComplianceFigures } from '@portal/contracts'
import { Badge } from '../shared/Badges.tsx'
import { complianceTone } from './notification-view.ts'
import { TableHead } from './TableHead.tsx'

/** A compliance percentage in the spec's colour; the number carries the meaning, the colour repeats it. */
export const CompliancePercent = ({ percent }: { percent: number }) => <Badge tone={complianceTone(percent)}>{`${percent}%`}</Badge>

const figures = (f: ComplianceFigures): [string, string][] => [
  ['Technicians', String(f.technicians)],
  ['Compliant', String(f.compliant)],
  ['Expired Certifications', String(f.expired_certifications)],
  ['Expiring Within 30 Days', String(f.expiring_30_days)],
]

/**
 * The organisation's and each branch's compliance (admin §2, §9): technicians without expired
 * certifications over all technicians, rounded, 100 when there are none; ≥ 90 green, ≥ 75 yellow,
 * else red.
 */
export const ComplianceOverview = ({ compliance }: { compliance: CertificationDashboard['compliance'] }) => {
  const org = compliance.organisation
  return (
    <section className="pk-card pk-stack" aria-labelledby="cn-compliance">
      <h2 id="cn-compliance" style={{ margin: 0 }}>
        Compliance Overview
      </h2>
      <dl className="ct-figures">
        <div>
          <dt>Organisation Compliance</dt>
          <dd>
            <CompliancePercent percent={org.percentage} />
          </dd>
        </div>
        {figures(org).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="pk-table-wrap">
        <table className="pk-table">
          <caption className="pk-visually-hidden">Compliance by branch</caption>
          <TableHead columns={['Branch', 'Compliance', 'Technicians', 'Compliant', 'Expired Certifications', 'Expiring Within 30 Days']} />
          <tbody>
            {compliance.branches.map((b) => (
              <tr key={b.branch}>
                <th scope="row">
                  {b.branch}
                </th>
                <td>
                  <CompliancePercent percent={b.percentage} />
                </td>
                <td>{b.technicians}</td>
                <td>{b.compliant}</td>
                <td>{b.expired_certifications}</td>
                <td>{b.expiring_30_days}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
