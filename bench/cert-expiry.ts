/**
 * The certification expiry check (issue 12) over 1,000,000 technician certifications on the
 * machine's PostgreSQL, beside a bare SQL scan of the same rows in the same run:
 * - ceiling: one `select` of every certification within 30 days of expiry (or past it) with its
 *   technician and type, read into Node: what any check has to read;
 * - ours: the daily check as svc-certs runs it (lease, bands, unique keys, log rows and outbox
 *   events committed per batch), then a second run that must publish nothing.
 * 10,000 technicians × 100 types; expiry dates spread over 30 days ago to five years ahead, so about
 * 3 % are due; one technician in ten has paused notifications; every configuration is active.
 * `npm run bench` calls `benchCertExpiry`; `node bench/cert-expiry.ts` runs this part alone.
 * BENCH_CERTS sets the number of certifications (a multiple of 100).
 */
import { ensureDatabase, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { migrationsList } from 'svc-certs/migrations'
import { ledgerRoutines } from 'svc-certs/compliance/rules-sql'
import { createAckSigner } from 'svc-certs/notifications/acknowledgement'
import { FACTS_FROM } from 'svc-certs/notifications/expiry-check'
import { DEFAULT_SCHEDULE, createNotificationRunner } from 'svc-certs/notifications/notification.runner'
import { entities } from 'svc-certs/server'
import { BENCH_PG, writeBenchRecord } from './support.ts'

const TYPES = 100

export interface CertExpiryBenchResult {
  certifications: number
  due: number
  seedSeconds: number
  ceilingScanMs: number
  firstRun: { ms: number; published: number; paused: number; events: number; logs: number }
  secondRun: { ms: number; published: number }
  ratio: number
  goals: { firstRunMs: 10_000; secondRunPublished: 0 }
}

const log = (msg: string) => process.env.BENCH_VERBOSE && process.stderr.write(`[cert-expiry ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)

export async function benchCertExpiry(pgUrl = BENCH_PG, count = Number(process.env.BENCH_CERTS ?? 1_000_000)): Promise<CertExpiryBenchResult> {
  const url = new URL(pgUrl)
  url.pathname = '/bench_cert_expiry'
  const admin = new URL(pgUrl)
  await ensureDatabase(admin.toString())
  // A fresh database each run.
  {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: admin.toString() })
    await client.connect()
    await client.query('drop database if exists bench_cert_expiry with (force)')
    await client.end()
  }
  await ensureDatabase(url.toString())
  const db = await openDatabase({
    service: 'certs',
    url: url.toString(),
    dataDir: '/tmp/unused',
    entities,
    migrations: migrationsList,
    routines: ledgerRoutines('UTC'),
    logger: silentLogger,
  })
  const conn = db.orm.em.getConnection()
  const technicians = Math.ceil(count / TYPES)
  const today = new Date().toISOString().slice(0, 10)

  const seedStart = performance.now()
  await conn.execute(`insert into users (id, name, email, is_admin, is_manager, branch, department, occurred_at)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Technician ' || i, 'tech' || i || '@bench.test', false, false,
           (array['Portland', 'Seattle', 'Anchorage', 'Tri-Cities'])[1 + i % 4], (array['Service', 'Testing', 'Construction'])[1 + (i / 4) % 3], now()
      from generate_series(1, ${technicians}) i`)
  await conn.execute(`insert into certification_types (name, code, tier_level, upload_required, is_active, validity_period, created_at, updated_at)
    select 'Type ' || i, 'T' || i, i % 4, false, true, 24, now(), now() from generate_series(1, ${TYPES}) i`)
  await conn.execute(`insert into technicians (user_id, current_tier, notifications_paused_until, updated_at)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 0, now() + interval '20 days', now()
      from generate_series(1, ${technicians}) i where i % 10 = 0`)
  log('users, types, pauses')
  await conn.execute(
    `insert into technician_certifications (user_id, certification_id, certification_number, obtained_date, expiration_date, created_at, updated_at)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(u), 12, '0'))::uuid, t, 'N' || u || '-' || t,
           ?::date - 700 + ((u * 7919 + t * 104729) % 1825) - 30, ?::date + ((u * 7919 + t * 104729) % 1825) - 30, now(), now()
      from generate_series(1, ${technicians}) u cross join generate_series(1, ${TYPES}) t`,
    [today, today],
  )
  await conn.execute(`update notification_configs set manager_email = 'manager.' || id || '@bench.test', operations_manager_email = 'ops.' || id || '@bench.test',
    additional_email_1 = 'safety.' || id || '@bench.test', is_active = true`)
  // The check is measured, not the seed's aftermath: statistics, visibility map and a checkpoint first.
  await conn.execute('vacuum analyze')
  await conn.execute('checkpoint').catch(() => undefined)
  const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10
  log(`seeded ${count} in ${seedSeconds}s`)

  // The ceiling: read every due certification with its facts, once.
  const scanStart = performance.now()
  const due = (await conn.execute(`${FACTS_FROM} where tc.expiration_date <= ?::date + 30`, [today, new Date(), today])) as unknown[]
  const ceilingScanMs = Math.round(performance.now() - scanStart)
  log(`scan ${due.length} rows in ${ceilingScanMs} ms`)

  const runner = createNotificationRunner({
    orm: db.orm,
    logger: silentLogger,
    now: () => new Date(),
    base: 'http://portal.bench',
    signer: createAckSigner(db.orm),
    schedule: { ...DEFAULT_SCHEDULE, enabled: false, timeZone: 'UTC' },
    afterBatch: (batch) => {
      log(`batch ${batch} committed`)
    },
  })
  const timed = async () => {
    const t = performance.now()
    const run = await runner.trigger('daily')
    return { ms: Math.round(performance.now() - t), run }
  }
  const first = await timed()
  const [{ events }] = (await conn.execute("select count(*)::int as events from outbox where type like 'certs.certification.%'")) as { events: number }[]
  const [{ logs }] = (await conn.execute('select count(*)::int as logs from notification_logs')) as { logs: number }[]
  log(`first run ${first.ms} ms`)
  const second = await timed()
  log(`second run ${second.ms} ms`)
  await runner.stop()
  await db.close()
  return {
    certifications: technicians * TYPES,
    due: due.length,
    seedSeconds,
    ceilingScanMs,
    firstRun: { ms: first.ms, published: first.run.published, paused: first.run.paused, events, logs },
    secondRun: { ms: second.ms, published: second.run.published },
    ratio: Number((first.ms / Math.max(1, ceilingScanMs)).toFixed(1)),
    goals: { firstRunMs: 10_000, secondRunPublished: 0 },
  }
}

export const formatCertExpiry = (r: CertExpiryBenchResult) =>
  [
    `certification expiry check over ${r.certifications.toLocaleString('en-US')} technician certifications (${r.due.toLocaleString('en-US')} due; seeded in ${r.seedSeconds} s)`,
    `  bare SQL scan of the due rows: ${r.ceilingScanMs} ms`,
    `  daily check: ${r.firstRun.ms} ms (goal ≤ ${r.goals.firstRunMs} ms), ${r.firstRun.published} e-mail notices in ${r.firstRun.events} events, ${r.firstRun.logs} log entries, ${r.firstRun.paused} paused`,
    `  second run: ${r.secondRun.ms} ms, ${r.secondRun.published} published (goal 0)`,
  ].join('\n')

if (import.meta.main) {
  const result = await benchCertExpiry()
  await writeBenchRecord('cert-expiry', result)
  console.log(formatCertExpiry(result))
}
