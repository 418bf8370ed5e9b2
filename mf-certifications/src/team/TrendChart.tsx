import { formatCompactMoney } from '@portal/ui-kit'
import { formatRatio, formatUsd, ratioColour } from '@portal/contracts'
import { niceMax, type TrendPoint } from './team-view.ts'

const W = 640
const H = 260
const PAD = { top: 28, right: 12, bottom: 44, left: 72 }
const TICKS = 4

/** Bar fills of the ratio colours (learner §9), dark enough to stand against the white page. */
const FILL = { green: '#15803d', yellow: '#a16207', orange: '#c2410c', red: '#b91c1c' } as const

/** What the chart shows, in words: read by screen readers in place of the drawing. */
export const trendSummary = (points: readonly TrendPoint[]): string =>
  points
    .map((p) => (p.revenue === null ? `${p.label}: no revenue recorded` : `${p.label}: ${formatUsd(p.revenue)}${p.ratio === null ? '' : `, ratio ${formatRatio(p.ratio)}`}`))
    .join('; ')

/**
 * Six months of gross revenue as bars (an SVG drawn here, no chart library: a few rectangles keep
 * the remote small). A bar's colour is its month's rev/pay ratio band; the legend says so in words.
 */
export const TrendChart = ({ points, title }: { points: readonly TrendPoint[]; title: string }) => {
  const top = niceMax(Math.max(0, ...points.map((p) => p.revenue ?? 0)))
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const slot = plotW / points.length
  const barW = Math.min(56, slot * 0.6)
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH
  return (
    <figure className="ct-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}. ${trendSummary(points)}`}>
        {Array.from({ length: TICKS + 1 }, (_, i) => {
          const v = (top / TICKS) * i
          return (
            <g key={i}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#cbd5e1" strokeWidth={1} />
              <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" fontSize={12} fill="#475569">
                {formatCompactMoney(v)}
              </text>
            </g>
          )
        })}
        {points.map((p, i) => {
          const cx = PAD.left + slot * i + slot / 2
          return (
            <g key={p.month}>
              {p.revenue === null ? (
                <text x={cx} y={y(0) - 6} textAnchor="middle" fontSize={11} fill="#475569">
                  none
                </text>
              ) : (
                <>
                  <rect
                    x={cx - barW / 2}
                    y={y(p.revenue)}
                    width={barW}
                    height={Math.max(1, y(0) - y(p.revenue))}
                    fill={p.ratio === null ? '#1d4ed8' : FILL[ratioColour(p.ratio)]}
                    rx={3}
                  />
                  <text x={cx} y={y(p.revenue) - 6} textAnchor="middle" fontSize={11} fontWeight={600} fill="#1e293b">
                    {formatCompactMoney(p.revenue)}
                  </text>
                </>
              )}
              <text x={cx} y={H - PAD.bottom + 18} textAnchor="middle" fontSize={12} fill="#1e293b">
                {p.label}
              </text>
            </g>
          )
        })}
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#475569" strokeWidth={1} />
      </svg>
      <figcaption className="pk-muted">
        {title}. Bar colour is the month&apos;s rev/pay ratio: green 35 or more, yellow 30 or more, orange 25 or more, red below 25; blue without pay data.
      </figcaption>
    </figure>
  )
}
