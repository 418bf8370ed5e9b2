import type { ComplianceForecast } from '@portal/contracts'
import type { Tone } from '../shared/index.ts'
import { complianceTone } from './notification-view.ts'

/**
 * Drawing area of the forecast chart, in CSS pixels: the chart is drawn as wide as its box (words
 * keep their size), 10% of the axis is 23 px so the 90% and 100% lines are not crowded, and a bar is
 * never narrower than its "100%" label.
 */
export const CHART = { width: 720, height: 300, top: 24, bottom: 44, left: 44, right: 8, barGap: 4, groupGap: 28, minBar: 32, maxBar: 72 } as const

/**
 * The chart's width for a box `available` px wide: the whole box, or (on a phone, with many
 * branches) the least width whose bars all fit their labels, the box then scrolling sideways.
 */
export function chartWidth(f: ComplianceForecast, available: number): number {
  const n = f.branches.length
  const bars = 1 + f.horizons.length
  const least = CHART.left + CHART.right + n * (bars * CHART.minBar + (bars - 1) * CHART.barGap) + Math.max(0, n - 1) * CHART.groupGap
  return Math.max(Math.floor(available), least)
}

export interface ForecastBar {
  key: string
  label: string
  percent: number
  tone: Tone
  x: number
  y: number
  width: number
  height: number
}
export interface ForecastGroup {
  branch: string
  x: number
  width: number
  bars: ForecastBar[]
}

/** "Today", "30 days": the columns of the forecast, today first. */
export const horizonLabel = (days: number | null): string => (days === null ? 'Today' : `${days} days`)

/**
 * The bars of the compliance forecast: per branch, today's percentage then one per horizon
 * (30/60/90 days), each as tall as its percentage and in the compliance colour of admin §9.
 */
export function forecastGroups(f: ComplianceForecast, width: number = CHART.width): ForecastGroup[] {
  const plotHeight = CHART.height - CHART.top - CHART.bottom
  const plotWidth = width - CHART.left - CHART.right
  const n = f.branches.length
  if (n === 0) return []
  const groupWidth = (plotWidth - CHART.groupGap * (n - 1)) / n
  return f.branches.map((b, i) => {
    const values = [{ days: null as number | null, percent: b.percentage_now }, ...b.horizons.map((h) => ({ days: h.days as number | null, percent: h.percentage }))]
    // Bars no wider than maxBar, centred in their group, so a wide screen with few branches is not a wall of colour.
    const barWidth = Math.min(CHART.maxBar, (groupWidth - CHART.barGap * (values.length - 1)) / values.length)
    const x = CHART.left + i * (groupWidth + CHART.groupGap)
    const first = x + (groupWidth - (barWidth * values.length + CHART.barGap * (values.length - 1))) / 2
    return {
      branch: b.branch,
      x,
      width: groupWidth,
      bars: values.map((v, j) => {
        const height = (plotHeight * v.percent) / 100
        return {
          key: `${b.branch}-${v.days ?? 'now'}`,
          label: horizonLabel(v.days),
          percent: v.percent,
          tone: complianceTone(v.percent),
          x: first + j * (barWidth + CHART.barGap),
          y: CHART.top + plotHeight - height,
          width: barWidth,
          height,
        }
      }),
    }
  })
}

/** The y of a percentage on the chart's axis. */
export const percentY = (percent: number): number => CHART.top + (CHART.height - CHART.top - CHART.bottom) * (1 - percent / 100)

/** Everyone who falls out within the longest horizon, soonest first, with their branch. */
export function fallingOut(f: ComplianceForecast) {
  return f.branches
    .flatMap((b) => (b.horizons.at(-1)?.falling_out ?? []).map((t) => ({ ...t, branch: b.branch })))
    .sort((a, b) => a.days_until_expiry - b.days_until_expiry || a.name.localeCompare(b.name))
}
