import type { EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import {
  TEAM,
  TEAM_MESSAGES,
  TIER_PAY_RATES,
  type LeaderboardPeriod,
  type LeaderboardResponse,
  type ManualRevenueBody,
  type MyLeaderboardResponse,
  type RevenueTrendResponse,
  type RevenueData,
  type RevenueRecord,
  type TierLevel,
} from '@portal/contracts'
import { auditTrail, badRequest, conflict, inManagerScope, notFound, projectedUsers, requireReadableUser, withProjectedScope, type Actor } from '@portal/server-kit'
import type { CertsContext } from '../context.ts'
import { requireTeamViewer, type TeamViewer } from '../compliance/index.ts'
import { revenueRepository, revPayRatio, type RankedTotal } from './revenue.repository.ts'

type ManualEntry = z.output<typeof ManualRevenueBody>

/** `YYYY-MM` of `month` moved by `delta` months. */
export const addMonths = (month: string, delta: number): string => {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + delta
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** First and last month of the period holding `month` (a calendar month, quarter or year). */
export function periodMonths(period: LeaderboardPeriod, month: string): { from: string; to: string } {
  const year = month.slice(0, 4)
  if (period === 'monthly') return { from: month, to: month }
  if (period === 'yearly') return { from: `${year}-01`, to: `${year}-12` }
  const first = Math.floor((Number(month.slice(5, 7)) - 1) / 3) * 3 + 1
  return { from: `${year}-${String(first).padStart(2, '0')}`, to: `${year}-${String(first + 2).padStart(2, '0')}` }
}

/** The profile's revenue cards (learner §2) and the tier's pay rate (§9); null until any revenue is recorded. */
export async function revenueCards(em: EntityManager, userId: string, tier: TierLevel, today: string): Promise<RevenueData | null> {
  const c = await revenueRepository.cards(em, userId, today.slice(0, 7))
  if (!c) return null
  return {
    month: c.month,
    monthly_revenue: c.gross,
    monthly_pay: c.pay,
    rev_pay_ratio: revPayRatio(c.gross, c.pay),
    yearly_revenue_ytd: c.ytd,
    tier_pay_rate: tier === 0 ? null : TIER_PAY_RATES[tier],
  }
}

/**
 * Revenue (learner §2 Revenue entry, §3, §5, §7, §9): admins record one figure per technician and
 * month; technicians read their own history, managers their team's, admins everyone's; the
 * leaderboard ranks the viewer's team.
 */
export function createRevenueService(ctx: CertsContext) {
  const { orm, now } = ctx
  const thisMonth = () => ctx.today().slice(0, 7)

  const leaderboardFor = async (em: EntityManager, viewer: TeamViewer, period: LeaderboardPeriod, month: string, userId?: string) => {
    const { from, to } = periodMonths(period, month)
    const { rows, place } = await revenueRepository.leaderboard(em, viewer, from, to, TEAM.leaderboardTop, userId)
    return { board: { period, from, to, rows } satisfies LeaderboardResponse, place }
  }

  return {
    /**
     * POST /revenue/manual-entry (admins): records the month; a month already recorded is a 409
     * carrying that record, unless the entry says `replace` (then it is updated, and says so).
     */
    async manualEntry(actor: Actor, body: ManualEntry) {
      return orm.em.fork().transactional(async (em) => {
        // Share-locked: a deletion of the technician handled meanwhile waits, then removes this record too.
        const [user] = await projectedUsers.lockExisting(em, [body.user_id])
        if (!user || user.name === null) throw notFound('User not found', 'user_not_found')
        if (user.isAdmin) throw badRequest(TEAM_MESSAGES.notATechnician, 'not_a_technician')
        const saved = await revenueRepository.record(em, {
          userId: body.user_id,
          month: body.month,
          gross: body.gross_revenue,
          pay: body.pay_amount,
          enteredBy: actor.userId,
          at: now(),
          replace: body.replace,
        })
        if (!saved) {
          const recorded = await revenueRepository.ofMonth(em, body.user_id, body.month)
          throw conflict(`${user.name} already has revenue recorded for ${body.month}; send it again with replace: true to update it`, 'revenue_month_recorded', {
            details: [recorded],
          })
        }
        const { id, updated } = saved
        await auditTrail.record(em, actor, updated ? 'revenue.updated' : 'revenue.recorded', `${user.name} ${body.month}`, {
          user_id: body.user_id,
          month: body.month,
          gross_revenue: body.gross_revenue,
          pay_amount: body.pay_amount,
        })
        return { message: updated ? TEAM_MESSAGES.revenueUpdated : TEAM_MESSAGES.revenueSaved, updated, record: await revenueRepository.byId(em, id) }
      })
    },
    /** GET /revenue/recent-entries (admins). */
    async recent(limit: number): Promise<RevenueRecord[]> {
      return revenueRepository.recent(orm.em.fork(), limit)
    },
    /** GET /revenue/user/{id}: the technician themself, managers whose scope covers them, admins. */
    async history(actor: Actor, userId: string): Promise<RevenueRecord[]> {
      const em = orm.em.fork()
      await requireReadableUser(em, actor, userId)
      return revenueRepository.ofUser(em, userId)
    },
    /** GET /revenue/leaderboard: the top 5 of the caller's team (managers, admins) over the period holding `date` (default today). */
    async leaderboard(actor: Actor, period: LeaderboardPeriod, date?: string): Promise<LeaderboardResponse> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      return (await leaderboardFor(em, viewer, period, date ? date.slice(0, 7) : thisMonth())).board
    },
    /**
     * GET /revenue/me/trend: the caller's own last 6 months up to this one, oldest first; a month
     * without a record is listed with 0 and `recorded: false`, so the chart has no gaps.
     */
    async myTrend(actor: Actor): Promise<RevenueTrendResponse> {
      const em = orm.em.fork()
      await requireReadableUser(em, actor, actor.userId)
      const to = thisMonth()
      const from = addMonths(to, 1 - TEAM.trendMonths)
      const byMonth = new Map((await revenueRepository.ofUser(em, actor.userId, { from, to })).map((r) => [r.month, r]))
      const months = Array.from({ length: TEAM.trendMonths }, (_, i) => {
        const month = addMonths(from, i)
        const r = byMonth.get(month)
        return r
          ? { month, recorded: true, gross_revenue: r.gross_revenue, pay_amount: r.pay_amount, rev_pay_ratio: r.rev_pay_ratio }
          : { month, recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null }
      })
      return { from, to, months }
    },
    /**
     * GET /revenue/leaderboard/me: the company's top 5 over the period holding `date` (default
     * today) by rank and name, and the caller's own place and figures. The amounts of a row are
     * sent only where the caller may read that person's revenue (DESIGN "Security": technicians
     * only themselves, managers their scope, admins everyone).
     */
    async myLeaderboard(actor: Actor, period: LeaderboardPeriod, date?: string): Promise<MyLeaderboardResponse> {
      const em = orm.em.fork()
      await requireReadableUser(em, actor, actor.userId)
      const reader = actor.isAdmin ? actor : await withProjectedScope(em, actor)
      const readable = (r: RankedTotal) => r.user_id === actor.userId || reader.isAdmin || (reader.isManager && inManagerScope(reader.managerScope, r))
      const { from, to } = periodMonths(period, date ? date.slice(0, 7) : thisMonth())
      // Everyone's ranking, as an admin's board has it: the place does not depend on who asks.
      const { rows, you, ranked } = await revenueRepository.ranked(em, { actor, scope: null }, from, to, TEAM.leaderboardTop, actor.userId)
      const shown = rows.map((r) => {
        const open = readable(r)
        return {
          rank: r.rank,
          name: r.name,
          is_you: r.user_id === actor.userId,
          gross_revenue: open ? r.gross : null,
          rev_pay_ratio: open ? revPayRatio(r.gross, r.pay) : null,
        }
      })
      return {
        period,
        from,
        to,
        ranked,
        rows: shown,
        you: you ? { rank: you.rank, gross_revenue: you.gross, pay_amount: you.pay, rev_pay_ratio: revPayRatio(you.gross, you.pay) } : null,
        amounts_withheld: rows.some((r) => !readable(r)),
      }
    },
    /** The member detail's revenue overview: the last 6 months (oldest first) and this month's leaderboard with the member's place. */
    async overview(em: EntityManager, viewer: TeamViewer, userId: string) {
      const month = thisMonth()
      const trend = (await revenueRepository.ofUser(em, userId, { from: addMonths(month, 1 - TEAM.trendMonths), to: month })).reverse()
      const { board, place } = await leaderboardFor(em, viewer, 'monthly', month, userId)
      return { revenue_trend: trend, leaderboard: board, leaderboard_place: place }
    },
  }
}
export type RevenueService = ReturnType<typeof createRevenueService>
