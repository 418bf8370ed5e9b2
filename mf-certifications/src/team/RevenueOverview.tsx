import { formatRatio, formatUsd, ratioColour, type LeaderboardResponse, type TeamMemberDetail } from '@portal/contracts'
import { EmptyState } from '@portal/ui-kit'
import { Badge } from '../shared/Badges.tsx'
import { monthLabel } from '../shared/format.ts'
import { trendPoints } from './team-view.ts'
import { TrendChart } from './TrendChart.tsx'

const PERIOD_LABEL = { monthly: 'This Month', quarterly: 'This Quarter', yearly: 'This Year' } as const

/** Top 5 by gross revenue (learner §9); the member's own row stands out. */
export const Leaderboard = ({ board, userId }: { board: LeaderboardResponse; userId?: string }) => {
  const span = board.from === board.to ? monthLabel(board.from) : `${monthLabel(board.from)} to ${monthLabel(board.to)}`
  return (
    <div className="pk-stack" style={{ gap: '.5rem' }}>
      <h3 id="leaderboard-title" style={{ margin: 0, fontSize: '1.0625rem' }}>
        Leaderboard: {PERIOD_LABEL[board.period]} ({span})
      </h3>
      {board.rows.length === 0 ? (
        <EmptyState>No revenue is recorded for this period yet.</EmptyState>
      ) : (
        <div className="pk-table-wrap">
          <table className="pk-table" aria-labelledby="leaderboard-title">
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
                  <td>{r.rev_pay_ratio === null ? <span className="pk-muted">No pay data</span> : <Badge tone={ratioColour(r.rev_pay_ratio)}>{formatRatio(r.rev_pay_ratio)}</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

/** Revenue Overview of the member detail: the 6-month trend, drawn, and the leaderboard with the member's place. */
export const RevenueOverview = ({ detail, thisMonth }: { detail: TeamMemberDetail; thisMonth: string }) => {
  const name = detail.profile.user.name
  return (
    <section className="pk-card pk-stack" aria-labelledby="overview-title">
      <h2 id="overview-title">Revenue Overview</h2>
      <h3 style={{ margin: 0, fontSize: '1.0625rem' }}>Revenue Trend</h3>
      <TrendChart points={trendPoints(detail.revenue_trend, thisMonth)} title={`Gross revenue of ${name}, last 6 months`} />
      <p style={{ margin: 0 }}>
        {detail.leaderboard_place === null
          ? `${name} has no revenue recorded this month.`
          : `${name} is number ${detail.leaderboard_place} on this month's leaderboard.`}
      </p>
      <Leaderboard board={detail.leaderboard} userId={detail.profile.user.id} />
    </section>
  )
}
