import { formatRatio, formatUsd, ratioColour, TEAM, TEAM_MESSAGES, type LeaderboardPeriod, type MyLeaderboardResponse, type RevenueTrendResponse } from '@portal/contracts'
import { DataTable, EmptyState, errorMessage, formatMonth, Spinner, Tabs } from '@portal/ui-kit'
import { useState } from 'react'
import { Badge, LoadFailure } from '../shared/index.ts'
import { TrendChart, trendPoints } from '../team/index.ts'
import { AMOUNTS_WITHHELD_NOTE, myStanding, periodSpan, useMyLeaderboard, useMyTrend } from './my-revenue.ts'

const PERIOD_TABS = ['Monthly', 'Quarterly', 'Yearly'] as const
type PeriodTab = (typeof PERIOD_TABS)[number]
const PERIOD_OF: Record<PeriodTab, LeaderboardPeriod> = { Monthly: 'monthly', Quarterly: 'quarterly', Yearly: 'yearly' }
const PERIOD_LABEL = { monthly: 'This Month', quarterly: 'This Quarter', yearly: 'This Year' } as const

const Ratio = ({ ratio }: { ratio: number | null }) =>
  ratio === null ? <span className="pk-muted">No pay data</span> : <Badge tone={ratioColour(ratio)}>{formatRatio(ratio)}</Badge>

/** The 6 months drawn (the team's bar chart) and, as its text alternative, month by month in a table. */
export const MyTrend = ({ trend }: { trend: RevenueTrendResponse }) => (
  <>
    <TrendChart
      points={trendPoints(
        trend.months.filter((m) => m.recorded),
        trend.to,
      )}
      title="Your gross revenue, last 6 months"
    />
    <h3 id="my-trend-table-title" className="pk-m0 pk-fs-17">
      Month by Month
    </h3>
    <DataTable labelledBy="my-trend-table-title" className="pk-table--stack">
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Gross Revenue</th>
          <th scope="col">Pay</th>
          <th scope="col">Rev/Pay Ratio</th>
        </tr>
      </thead>
      <tbody>
        {trend.months.map((m) => (
          <tr key={m.month}>
            <th scope="row">{formatMonth(m.month)}</th>
            {m.recorded ? (
              <>
                <td data-label="Gross Revenue">{formatUsd(m.gross_revenue)}</td>
                <td data-label="Pay">{m.pay_amount === null ? <span className="pk-muted">Not entered</span> : formatUsd(m.pay_amount)}</td>
                <td data-label="Rev/Pay Ratio">
                  <Ratio ratio={m.rev_pay_ratio} />
                </td>
              </>
            ) : (
              <td colSpan={3} className="pk-muted">
                No revenue recorded
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </DataTable>
  </>
)

/**
 * The top 5 by rank and name, then the caller's row when they are further down; the amounts the
 * service withholds (other people's, unless the caller manages them or is an admin) read "Not shown".
 */
export const MyLeaderboard = ({ board, name }: { board: MyLeaderboardResponse; name: string }) => {
  const titleId = `my-leaderboard-${board.period}-title`
  const rows = board.rows.some((r) => r.is_you) || !board.you ? board.rows : [...board.rows, { ...board.you, name, is_you: true }]
  return (
    <div className="pk-stack pk-gap-m">
      <h3 id={titleId} className="pk-m0 pk-fs-17">
        Leaderboard: {PERIOD_LABEL[board.period]} ({periodSpan(board)})
      </h3>
      <p className="pk-m0">{myStanding(board)}</p>
      {board.amounts_withheld ? <p className="pk-m0 pk-muted">{AMOUNTS_WITHHELD_NOTE}</p> : null}
      {rows.length === 0 ? (
        <EmptyState>No revenue is recorded for this period yet.</EmptyState>
      ) : (
        // On a phone each row is a card that names its figures.
        <DataTable labelledBy={titleId} className="pk-table--stack">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Technician</th>
              <th scope="col">Gross Revenue</th>
              <th scope="col">Rev/Pay Ratio</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.rank}-${r.name}-${r.is_you}`} className={r.is_you ? 'ct-mine' : undefined} aria-current={r.is_you ? 'true' : undefined}>
                <td data-label="Rank">{r.rank}</td>
                <td>{r.is_you ? `${name} (you)` : r.name}</td>
                <td data-label="Gross Revenue">{r.gross_revenue === null ? <span className="pk-muted">Not shown</span> : formatUsd(r.gross_revenue)}</td>
                <td data-label="Rev/Pay Ratio">{r.gross_revenue === null ? <span className="pk-muted">Not shown</span> : <Ratio ratio={r.rev_pay_ratio} />}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  )
}

const LeaderboardPanel = ({ period, name }: { period: LeaderboardPeriod; name: string }) => {
  const board = useMyLeaderboard(period)
  return board.data ? (
    <MyLeaderboard board={board.data} name={name} />
  ) : board.isError ? (
    <LoadFailure error={board.error} text={errorMessage(board.error, TEAM_MESSAGES.loadRevenue)} onRetry={() => void board.refetch()} size="small" />
  ) : (
    <Spinner label="Loading leaderboard..." />
  )
}

/**
 * A technician's own revenue on their profile (learner §1: "see revenue history and a
 * leaderboard"): their last 6 months, drawn and in a table, and the company's top 5 with their own
 * place, by month, quarter or year. Loaded lazily by the profile page (it is the own profile's only).
 */
const MyRevenue = ({ name }: { name: string }) => {
  const trend = useMyTrend()
  const [tab, setTab] = useState<PeriodTab>('Monthly')
  return (
    <>
      <section className="pk-card pk-stack" aria-labelledby="my-trend-title">
        <h2 id="my-trend-title">My Revenue Trend</h2>
        {trend.data ? (
          <MyTrend trend={trend.data} />
        ) : trend.isError ? (
          <LoadFailure error={trend.error} text={errorMessage(trend.error, TEAM_MESSAGES.loadRevenue)} onRetry={() => void trend.refetch()} size="small" />
        ) : (
          <Spinner label="Loading revenue trend..." />
        )}
      </section>
      <section className="pk-card pk-stack" aria-labelledby="my-leaderboard-title">
        <h2 id="my-leaderboard-title">Leaderboard</h2>
        <p className="pk-m0 pk-muted">The company&apos;s top {TEAM.leaderboardTop} technicians by gross revenue, and where you stand.</p>
        <Tabs label="Leaderboard period" tabs={PERIOD_TABS} selected={tab} onSelect={setTab} idOf={(t) => `my-leaderboard-${t.toLowerCase()}`} panelClassName="pk-stack">
          <LeaderboardPanel period={PERIOD_OF[tab]} name={name} />
        </Tabs>
      </section>
    </>
  )
}

export default MyRevenue
