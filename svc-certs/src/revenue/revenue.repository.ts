import { sqlConditions } from '@portal/server-kit'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Branch, Department, LeaderboardRow, RevenueRecord } from '@portal/contracts'
import { teamConditions, type TeamViewer } from '../compliance/index.ts'

interface RecordSql {
  id: number
  user_id: string
  month: string
  gross_revenue: string
  pay_amount: string | null
  created_at: Date
  updated_at: Date
  name: string | null
  branch: Branch | null
  department: Department | null
}

/** gross / pay with two decimals when both are above 0 (learner §5, §9), else null. */
export const revPayRatio = (gross: number, pay: number | null): number | null => (pay !== null && pay > 0 && gross > 0 ? Math.round((gross / pay) * 100) / 100 : null)

const toRecord = (r: RecordSql): RevenueRecord => {
  const gross = Number(r.gross_revenue)
  const pay = r.pay_amount === null ? null : Number(r.pay_amount)
  return {
    id: Number(r.id),
    user_id: r.user_id,
    month: r.month,
    gross_revenue: gross,
    pay_amount: pay,
    rev_pay_ratio: revPayRatio(gross, pay),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    user: { id: r.user_id, name: r.name ?? '', branch: r.branch, department: r.department },
  }
}

/** A member's revenue totals over a leaderboard's months, with their place. */
export interface RankedTotal {
  rank: number
  user_id: string
  name: string
  branch: Branch | null
  department: Department | null
  gross: number
  pay: number | null
}

const SELECT = `select r.id, r.user_id, r.month, r.gross_revenue, r.pay_amount, r.created_at, r.updated_at, u.name, u.branch, u.department
  from revenue_records r left join users u on u.id = r.user_id`

export const revenueRepository = {
  /**
   * Records the month's figures; with `replace`, replaces the ones recorded for that technician and
   * month. One statement either way, so two entries at once for one month leave one record.
   * `null` when the month is recorded already and `replace` was not asked; `updated` says which.
   */
  async record(em: EntityManager, e: { userId: string; month: string; gross: number; pay: number | null; enteredBy: string; at: Date; replace: boolean }) {
    const onConflict = e.replace
      ? `do update set gross_revenue = excluded.gross_revenue, pay_amount = excluded.pay_amount, entered_by = excluded.entered_by, updated_at = excluded.updated_at`
      : 'do nothing'
    const rows = (await em.execute(
      `insert into revenue_records (user_id, month, gross_revenue, pay_amount, entered_by, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (user_id, month) ${onConflict}
       returning id, (xmax <> 0) as updated`,
      [e.userId, e.month, e.gross, e.pay, e.enteredBy, e.at, e.at],
    )) as { id: number; updated: boolean }[]
    return rows[0] ? { id: Number(rows[0].id), updated: rows[0].updated } : null
  },
  /** The technician's record of `month`, if any. */
  async ofMonth(em: EntityManager, userId: string, month: string): Promise<RevenueRecord | null> {
    const rows = (await em.execute(`${SELECT} where r.user_id = ? and r.month = ?`, [userId, month])) as RecordSql[]
    return rows[0] ? toRecord(rows[0]) : null
  },
  async byId(em: EntityManager, id: number): Promise<RevenueRecord> {
    const rows = (await em.execute(`${SELECT} where r.id = ?`, [id])) as RecordSql[]
    return toRecord(rows[0]!)
  },
  /** The last entries made or changed, newest first. */
  async recent(em: EntityManager, limit: number): Promise<RevenueRecord[]> {
    return ((await em.execute(`${SELECT} order by r.updated_at desc, r.id desc limit ?`, [limit])) as RecordSql[]).map(toRecord)
  },
  /** A technician's months from `from` to `to` (`YYYY-MM`, either open), newest first. */
  async ofUser(em: EntityManager, userId: string, range: { from?: string; to?: string } = {}): Promise<RevenueRecord[]> {
    const filter = sqlConditions(['r.user_id = ?'], [userId]).when(range.from, 'r.month >= ?', range.from).when(range.to, 'r.month <= ?', range.to)
    return ((await em.execute(`${SELECT} ${filter.where} order by r.month desc`, filter.values)) as RecordSql[]).map(toRecord)
  },
  /**
   * Revenue per member of the viewer's team over the months `from`..`to`, ranked by gross revenue
   * (ties share a rank): the first `top` rows, and `userId`'s rank when asked for.
   */
  async leaderboard(em: EntityManager, viewer: TeamViewer, from: string, to: string, top: number, userId?: string) {
    const { rows, you } = await this.ranked(em, viewer, from, to, top, userId)
    const toRow = (r: RankedTotal): LeaderboardRow => ({ rank: r.rank, user_id: r.user_id, name: r.name, gross_revenue: r.gross, rev_pay_ratio: revPayRatio(r.gross, r.pay) })
    return { rows: rows.map(toRow), place: you ? you.rank : null }
  },
  /**
   * The ranking behind both leaderboards: each member's totals over `from`..`to` with rank (ties
   * share one), branch and department; the first `top`, `userId`'s own totals (null without
   * revenue then) and how many were ranked.
   */
  async ranked(em: EntityManager, viewer: TeamViewer, from: string, to: string, top: number, userId?: string) {
    const { where, params } = teamConditions(viewer)
    const rows = (await em.execute(
      `with totals as (
         select r.user_id, u.name, u.branch, u.department, sum(r.gross_revenue) as gross, sum(r.pay_amount) as pay
         from revenue_records r join users u on u.id = r.user_id
         where r.month between ? and ? and ${where.join(' and ')}
         group by r.user_id, u.name, u.branch, u.department),
       ranked as (select *, rank() over (order by gross desc) as rank, row_number() over (order by gross desc, lower(name), user_id) as n,
         count(*) over () as ranked from totals)
       select * from ranked where n <= ? or user_id = ? order by n`,
      [from, to, ...params, top, userId ?? null],
    )) as { user_id: string; name: string; branch: Branch | null; department: Department | null; gross: string; pay: string | null; rank: string; n: string; ranked: string }[]
    const toTotal = (r: (typeof rows)[number]): RankedTotal => ({
      rank: Number(r.rank),
      user_id: r.user_id,
      name: r.name,
      branch: r.branch,
      department: r.department,
      gross: Number(r.gross),
      pay: r.pay === null ? null : Number(r.pay),
    })
    const you = userId ? rows.find((r) => r.user_id === userId) : undefined
    return { rows: rows.filter((r) => Number(r.n) <= top).map(toTotal), you: you ? toTotal(you) : null, ranked: rows[0] ? Number(rows[0].ranked) : 0 }
  },
  /** The profile's cards: the latest month with a record up to `month`, and the year's gross revenue up to it. */
  async cards(em: EntityManager, userId: string, month: string) {
    const rows = (await em.execute(
      `select
         (select json_build_object('month', month, 'gross', gross_revenue, 'pay', pay_amount) from revenue_records
           where user_id = ? and month <= ? order by month desc limit 1) as latest,
         (select coalesce(sum(gross_revenue), 0) from revenue_records where user_id = ? and month between ? and ?) as ytd`,
      [userId, month, userId, `${month.slice(0, 4)}-01`, month],
    )) as { latest: { month: string; gross: number | string; pay: number | string | null } | null; ytd: string }[]
    const latest = rows[0]!.latest
    if (!latest) return null
    return { month: latest.month, gross: Number(latest.gross), pay: latest.pay === null ? null : Number(latest.pay), ytd: Number(rows[0]!.ytd) }
  },
  /** Forgets a deleted user's revenue and promotion requests. */
  async dropUser(em: EntityManager, userId: string) {
    await em.execute('delete from revenue_records where user_id = ?', [userId])
    await em.execute('delete from promotion_requests where user_id = ?', [userId])
  },
}
