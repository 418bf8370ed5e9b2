import { CERT_NOTIFICATIONS, type ComplianceForecast } from '@portal/contracts'
import { DataTable, errorMessage, formatDate, Spinner, TableHead } from '@portal/ui-kit'
import { useLayoutEffect, useRef, useState } from 'react'
import { type Tone, relativeDays, LoadFailure } from '../shared/index.ts'
import { useComplianceForecast } from './data/apiHooks.ts'
import { CompliancePercent } from './ComplianceOverview.tsx'
import { CHART, chartWidth, fallingOut, forecastGroups, horizonLabel, percentY } from './forecast-chart.ts'

const FILL: Record<Tone, string> = { green: '#15803d', yellow: '#a16207', orange: '#c2410c', red: '#b91c1c', blue: '#1d4ed8', grey: '#475569' }
const HORIZONS = CERT_NOTIFICATIONS.forecastHorizons

/**
 * Compliance forecast (beyond the spec): per branch, the compliance percentage today and in 30, 60
 * and 90 days if nothing is renewed, drawn as bars in the compliance colours, the same figures in a
 * table, and who falls out of compliance. Loaded after the rest of the screen.
 */
const ForecastSection = () => {
  const forecast = useComplianceForecast()
  return (
    <section className="pk-card pk-stack" aria-labelledby="cn-forecast">
      <h2 id="cn-forecast" className="pk-m0">
        Compliance Forecast
      </h2>
      <p className="pk-muted pk-m0">Who falls out of compliance in the next {HORIZONS.join(', ').replace(/, (\d+)$/, ' and $1')} days if nothing is renewed.</p>
      {forecast.isPending ? (
        <Spinner label="Loading forecast..." />
      ) : forecast.isError ? (
        <LoadFailure error={forecast.error} text={errorMessage(forecast.error, 'Failed to load the compliance forecast')} onRetry={() => void forecast.refetch()} />
      ) : (
        <ForecastBody data={forecast.data} />
      )}
    </section>
  )
}

/** The width of an element's content box, followed as it changes (null until measured). */
const useContentWidth = () => {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState<number | null>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    setWidth(el.clientWidth)
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => setWidth(el.clientWidth))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width] as const
}

const ForecastBody = ({ data }: { data: ComplianceForecast }) => {
  const [box, available] = useContentWidth()
  const width = chartWidth(data, available || CHART.width)
  const scrolls = available !== null && available > 0 && width > available
  const groups = forecastGroups(data, width)
  const people = fallingOut(data)
  const headings = [null, ...data.horizons].map((d) => (d === null ? 'Today' : `In ${horizonLabel(d)}`))
  return (
    <>
      {/* The chart takes its box's width; narrower than its bars' labels (a phone), it scrolls sideways rather than shrink its words, and the scroller then takes focus to scroll by keyboard. */}
      <div ref={box} role="group" aria-label={scrolls ? 'Forecast chart, scrolls sideways' : 'Forecast chart'} tabIndex={scrolls ? 0 : undefined} className="pk-scroll-x">
        <svg style={{ display: 'block' }} width={width} height={CHART.height} viewBox={`0 0 ${width} ${CHART.height}`} role="img" aria-labelledby="cn-chart-title">
          <title id="cn-chart-title">Compliance by branch today and in {data.horizons.join(', ')} days (figures in the table below)</title>
          {[0, 50, 75, 90, 100].map((p) => (
            <g key={p}>
              <line x1={CHART.left} x2={width - CHART.right} y1={percentY(p)} y2={percentY(p)} stroke="#cbd5e1" strokeDasharray={p === 0 ? undefined : '4 4'} />
              <text x={CHART.left - 6} y={percentY(p) + 4} textAnchor="end" fontSize="11" fill="#334155">
                {p}%
              </text>
            </g>
          ))}
          {groups.map((g) => (
            <g key={g.branch}>
              {g.bars.map((b) => (
                <g key={b.key}>
                  <rect x={b.x} y={b.y} width={b.width} height={b.height} fill={FILL[b.tone]} rx="2" />
                  <text x={b.x + b.width / 2} y={b.y - 4} textAnchor="middle" fontSize="11" fontWeight="700" fill="#1e293b">
                    {b.percent}%
                  </text>
                  <text x={b.x + b.width / 2} y={CHART.height - CHART.bottom + 14} textAnchor="middle" fontSize="10" fill="#334155">
                    {b.label === 'Today' ? 'Now' : b.label.replace(' days', 'd')}
                  </text>
                </g>
              ))}
              <text x={g.x + g.width / 2} y={CHART.height - 8} textAnchor="middle" fontSize="13" fontWeight="700" fill="#0f172a">
                {g.branch}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <DataTable className="pk-table--stack">
        <caption className="pk-visually-hidden">Compliance forecast by branch</caption>
        <TableHead columns={['Branch', 'Technicians', ...headings]} />
        <tbody>
          {data.branches.map((b) => (
            <tr key={b.branch}>
              <th scope="row">{b.branch}</th>
              <td data-label="Technicians">{b.technicians}</td>
              <td data-label={headings[0]}>
                <CompliancePercent percent={b.percentage_now} />
              </td>
              {b.horizons.map((h) => (
                <td key={h.days} data-label={`In ${horizonLabel(h.days)}`}>
                  <CompliancePercent percent={h.percentage} />
                  {h.falling_out.length > 0 ? <span className="pk-muted"> ({h.falling_out.length} fall out)</span> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </DataTable>
      <h3 className="pk-m0 pk-fs-17">Falling Out of Compliance</h3>
      {people.length === 0 ? (
        <p className="pk-empty">Nobody falls out of compliance in the next {data.horizons.at(-1) ?? 90} days.</p>
      ) : (
        <DataTable className="pk-table--stack">
          <caption className="pk-visually-hidden">Technicians falling out of compliance</caption>
          <TableHead columns={['Technician', 'Branch', 'Certification', 'Expires']} />
          <tbody>
            {people.map((p) => (
              <tr key={`${p.branch}-${p.user_id}`}>
                <td>
                  {p.name}
                  {p.department ? <span className="pk-muted"> ({p.department})</span> : null}
                </td>
                <td data-label="Branch">{p.branch}</td>
                <td data-label="Certification">
                  {p.certification.name} ({p.certification.code})
                </td>
                <td data-label="Expires">
                  {formatDate(p.expiration_date)} ({relativeDays(p.days_until_expiry)})
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </>
  )
}

export default ForecastSection
