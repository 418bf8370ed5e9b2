import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addDays,
  certificationStatus,
  compliancePercentage,
  completionPercent,
  computeExpiration,
  daysUntil,
  expirationBadge,
  hasNoExpired,
  isCertificationValid,
  isExpired,
  isExpiringSoon,
  meetsRequirements,
  noticeBand,
  renewedExpiration,
  requirementMet,
  todayIn,
} from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

/** The boundary days of every band and badge (issue 23), and a few beyond. */
const DAYS = [-400, -31, -2, -1, 0, 1, 6, 7, 8, 10, 11, 13, 14, 15, 29, 30, 31, 59, 60, 61, 365]
const TODAY = '2026-11-28'

describe('the certification rules in SQL say what contracts’ cert-rules say', () => {
  it('days left, expired, expiring soon, badge and notice band over the boundary days', async () => {
    const rows = await h.sql<{ d: number; days: number; expired: boolean; soon: boolean; badge: string | null; band: number | null }>(
      `select x.d, certs_days_left((?::date + x.d), ?::date) as days, certs_is_expired(x.d) as expired, certs_is_expiring_soon(x.d) as soon,
              certs_badge(x.d) as badge, certs_notice_band(x.d) as band
         from (select value::int as d from jsonb_array_elements_text(?::jsonb)) x order by x.d`,
      [TODAY, TODAY, JSON.stringify(DAYS)],
    )
    expect(rows.map((r) => [r.d, r.days, r.expired, r.soon, r.badge, r.band])).toEqual(
      DAYS.map((d) => [d, daysUntil(addDays(TODAY, d), TODAY), isExpired(d), isExpiringSoon(d), expirationBadge(d), noticeBand(d)]),
    )
    // What the boundaries are, so a change of rule is a change of this test too.
    expect([-1, 0, 7, 8, 10, 11, 30, 31, 60, 61].map(expirationBadge)).toEqual([
      'expired',
      'critical',
      'critical',
      'critical',
      'critical',
      'warning',
      'warning',
      'notice',
      'notice',
      null,
    ])
    expect([-1, 0, 7, 8, 14, 15, 30, 31].map(noticeBand)).toEqual([0, 7, 7, 14, 14, 30, 30, null])
  })

  it('validity, status and requirement met for every kind of held certification, in both views', async () => {
    const cases: { days: number | null; verified: boolean; file: boolean; upload: boolean }[] = []
    for (const days of [null, ...DAYS])
      for (const verified of [false, true]) for (const file of [false, true]) for (const upload of [false, true]) cases.push({ days, verified, file, upload })
    const rows = await h.sql<{ i: number; valid: boolean; status: string; met: boolean; met_manager: boolean }>(
      `select x.i, certs_is_valid(x.expiration, ?::date) as valid,
              certs_status(x.expiration, x.verified_at, x.file_name, x.upload, ?::date) as status,
              certs_requirement_met(x.expiration, x.file_name, x.upload, ?::date, false) as met,
              certs_requirement_met(x.expiration, x.file_name, x.upload, ?::date, true) as met_manager
         from jsonb_to_recordset(?::jsonb) as x(i int, expiration date, verified_at timestamptz, file_name text, upload boolean) order by x.i`,
      [
        TODAY,
        TODAY,
        TODAY,
        TODAY,
        JSON.stringify(
          cases.map((c, i) => ({
            i,
            expiration: c.days === null ? null : addDays(TODAY, c.days),
            verified_at: c.verified ? '2026-01-01T00:00:00Z' : null,
            file_name: c.file ? 'proof.pdf' : null,
            upload: c.upload,
          })),
        ),
      ],
    )
    expect(rows.map((r) => [r.valid, r.status, r.met, r.met_manager])).toEqual(
      cases.map((c) => {
        const facts = {
          expiration_date: c.days === null ? null : addDays(TODAY, c.days),
          verified_at: c.verified ? '2026-01-01T00:00:00Z' : null,
          file_name: c.file ? 'proof.pdf' : null,
          certification: { upload_required: c.upload },
        }
        return [isCertificationValid(facts, TODAY), certificationStatus(facts, TODAY), requirementMet(facts, TODAY), requirementMet(facts, TODAY, { managerView: true })]
      }),
    )
  })

  it('completion, the two measures and the compliance percentage, including halves that floating point gets wrong', async () => {
    const pairs: [number, number][] = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 3],
      [2, 3],
      [57, 200],
      [1, 8],
      [7, 8],
      [99, 100],
      [333, 1000],
      [5, 9],
      [10000, 10000],
      [4999, 10000],
    ]
    const rows = await h.sql<{ completion: number; meets: boolean; percent: number; none: boolean }>(
      `select certs_completion_percent(x.a, x.b) as completion, certs_meets_requirements(certs_completion_percent(x.a, x.b)) as meets,
              certs_compliance_percentage(x.a, x.b) as percent, certs_has_no_expired(x.b - x.a) as none
         from jsonb_to_recordset(?::jsonb) as x(a int, b int, n int) order by x.n`,
      [JSON.stringify(pairs.map(([a, b], n) => ({ a, b, n })))],
    )
    expect(rows.map((r) => [r.completion, r.meets, r.percent, r.none])).toEqual(
      pairs.map(([a, b]) => [completionPercent(a, b), meetsRequirements(completionPercent(a, b)), compliancePercentage(a, b), hasNoExpired(b - a)]),
    )
    expect(compliancePercentage(57, 200)).toBe(29)
  })

  it('expiration and renewal dates, month ends and leap days included', async () => {
    const cases: [string, number | null][] = [
      ['2024-01-31', 1],
      ['2024-02-29', 12],
      ['2025-08-31', 6],
      ['2026-11-28', 24],
      ['2026-03-15', null],
      ['2023-12-31', 60],
    ]
    const renewals: [string | null, string, number | null][] = [
      ['2027-01-20', '2026-11-28', 12], // 53 days before expiry: inside the window, from the old expiry
      ['2027-02-10', '2026-11-28', 12], // 74 days before: from the renewal day
      ['2026-11-28', '2026-11-28', 12], // on the expiry day itself
      ['2026-11-27', '2026-11-28', 12], // the day after expiry: from the renewal day
      ['2027-01-27', '2026-11-28', 24], // exactly 60 days
      ['2027-01-28', '2026-11-28', 24], // 61 days
      [null, '2026-11-28', 36],
      ['2027-01-01', '2026-11-28', null],
    ]
    const [row] = await h.sql<{ computed: (string | null)[]; renewed: (string | null)[] }>(
      `select (select array_agg(certs_compute_expiration(c.d, c.m)::text order by c.n)
                 from jsonb_to_recordset(?::jsonb) as c(d date, m int, n int)) as computed,
              (select array_agg(certs_renewed_expiration(r.o, r.d, r.m)::text order by r.n)
                 from jsonb_to_recordset(?::jsonb) as r(o date, d date, m int, n int)) as renewed`,
      [JSON.stringify(cases.map(([d, m], n) => ({ d, m, n }))), JSON.stringify(renewals.map(([o, d, m], n) => ({ o, d, m, n })))],
    )
    expect(row!.computed).toEqual(cases.map(([d, m]) => computeExpiration(d, m)))
    expect(row!.renewed).toEqual(renewals.map(([o, d, m]) => renewedExpiration(o, d, m)))
  })

  it('today is the company’s date, in SQL as in TypeScript', async () => {
    const [row] = await h.sql<{ today: string }>(`select certs_today()::text as today`)
    // The harness's company is on UTC; either side of a midnight both are read within a second.
    expect([todayIn('UTC'), todayIn('UTC', new Date(Date.now() - 5000))]).toContain(row!.today)
    expect(todayIn('America/Los_Angeles', new Date('2026-11-28T07:30:00Z'))).toBe('2026-11-27')
    expect(todayIn('America/Los_Angeles', new Date('2026-11-28T08:30:00Z'))).toBe('2026-11-28')
  })
})
