import { formatRatio, formatUsd, ratioColour, TEAM, TEAM_MESSAGES, type LeaderboardPeriod, type LeaderboardResponse, type TeamMemberDetail } from '@portal/contracts'
import { DataTable, EmptyState, errorMessage, formatMonth, Spinner, Tabs } from '@portal/ui-kit'
import { useState } from 'react'
import { useLeaderboard } from '../revenue/index.ts'
import { Badge, LoadFailure } from '../shared/index.ts'
import { trendPoints } from './team-view.ts'
import { TrendChart } from './TrendChart.tsx'

const PERIOD_LABEL = { monthly: 'This Month', quarterly: 'This Quarter', yearly: 'This Year' } as const
const PERIOD_NOUN = { monthly: 'month', quarterly: 'quarter', yearly: 'year' } as const
const PERIOD_TABS = ['Monthly', 'Quarterly', 'Yearly'] as const
type PeriodTab = (typeof PERIOD_TABS)[number]
const PERIOD_OF: Record<PeriodTab, LeaderboardPeriod> = { Monthly: 'monthly', Quarterly: 'quarterly', Yearly: 'yearly' }
const tabId = (tab: PeriodTab) => `ct-leaderboard-${tab.toLowerCase()}`

/**
 * Where the member stands on `board`: `place` when the answer gives it (the member detail's month,
 * null when they have no revenue then), else their row; outside a full top 5 the place is not known.
 */
export const memberStanding = (name: string, userId: string, board: LeaderboardResponse, place?: number | null): string => {
  const noun = PERIOD_NOUN[board.period]
  const rank = place ?? board.rows.find((r) => r.user_id === userId)?.rank
  if (rank !== undefined) return `${name} is number ${rank} on this ${noun}'s leaderboard.`
  if (place === null || board.rows.length < TEAM.leaderboardTop) return `${name} has no revenue recorded this ${noun}.`
  return `${name} is not in this ${noun}'s top ${TEAM.leaderboardTop}.`
}

/** Top 5 by gross revenue (learner §9); the member's own row stands out. */
export const Leaderboard = ({ board, userId }: { board: LeaderboardResponse; userId?: string }) => {
  const span = board.from === board.to ? formatMonth(board.from) : `${formatMonth(board.from)} to ${formatMonth(board.to)}`
  return (
    <div className="pk-stack pk-gap-m">
      <h3 id="leaderboard-title" className="pk-m0 pk-fs-17">
        Leaderboard: {PERIOD_LABEL[board.period]} ({span})
      </h3>
      {board.rows.length === 0 ? (
        <EmptyState>No revenue is recorded for this period yet.</EmptyState>
      ) : (
        <DataTable labelledBy="leaderboard-title">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Technician</th>
              <th scope="col">Gross Revenue</th>
              <th scope="col">Rev/Pay Ratio</th>
            </tr>
          </thead>
          <tbody>
            {board.rows.map((r) => (
              <tr key={r.user_id} className={r.user_id === userId ? 'ct-mine' : undefined} aria-current={r.user_id === userId ? 'true' : undefined}>
                <td>{r.rank}</td>
                <td>{r.name}</td>
                <td>{formatUsd(r.gross_revenue)}</td>
                <td>
                  {r.rev_pay_ratio === null ? <span className="pk-muted">No pay data</span> : <Badge tone={ratioColour(r.rev_pay_ratio)}>{formatRatio(r.rev_pay_ratio)}</Badge>}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  )
}

/** One period's leaderboard as loaded: the member's standing and the table, or loading, or the failure with Try Again. */
export const LeaderboardState = ({
  name,
  userId,
  board,
  place,
  error,
  onRetry,
}: {
  name: string
  userId: string
  board: LeaderboardResponse | undefined
  place?: number | null
  error: unknown
  onRetry: () => void
}) =>
  board ? (
    <>
      <p className="pk-m0">{memberStanding(name, userId, board, place)}</p>
      <Leaderboard board={board} userId={userId} />
    </>
  ) : error ? (
    <LoadFailure error={error} text={errorMessage(error, TEAM_MESSAGES.loadRevenue)} onRetry={onRetry} size="small" />
  ) : (
    <Spinner label="Loading leaderboard..." />
  )

/**
 * Revenue Overview of the member detail: the 6-month trend, drawn, and the leaderboard with the
 * member's place, by month (from the detail), quarter or year (fetched when chosen).
 */
export const RevenueOverview = ({ detail, thisMonth }: { detail: TeamMemberDetail; thisMonth: string }) => {
  const { name, id } = detail.profile.user
  const [tab, setTab] = useState<PeriodTab>('Monthly')
  const period = PERIOD_OF[tab]
  const board = useLeaderboard(period, thisMonth)
  return (
    <section className="pk-card pk-stack" aria-labelledby="overview-title">
      <h2 id="overview-title">Revenue Overview</h2>
      <h3 className="pk-m0 pk-fs-17">Revenue Trend</h3>
      <TrendChart points={trendPoints(detail.revenue_trend, thisMonth)} title={`Gross revenue of ${name}, last 6 months`} />
      <Tabs label="Leaderboard period" tabs={PERIOD_TABS} selected={tab} onSelect={setTab} idOf={tabId} panelClassName="pk-stack">
        {period === 'monthly' ? (
          <LeaderboardState name={name} userId={id} board={detail.leaderboard} place={detail.leaderboard_place} error={null} onRetry={() => undefined} />
        ) : (
          <LeaderboardState name={name} userId={id} board={board.data} error={board.error} onRetry={() => void board.refetch()} />
        )}
      </Tabs>
    </section>
  )
}
