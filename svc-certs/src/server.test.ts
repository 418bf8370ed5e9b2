import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Events, LeaderboardResponse, RevenueHistoryResponse, TeamMemberDetail, TechnicianProfile, type EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createInProcessBus, createTokenIssuer, loadOrCreateSigningKey, type Actor } from '@portal/server-kit'
import { createS3Storage } from '@portal/server-kit/s3'
import { createTestDatabase, outboxEvents, silentLogger, sqlOf, startTestS3 } from '@portal/server-kit/testing'
import { loadCertsEnv, seedDemoData, start } from './server.ts'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

const DEMO = ['admin', 'manager', 'tech.portland', 'tech.seattle', 'tech.anchorage', 'tech.tricities', 'new.hire']

describe('start()', () => {
  it('asks identity once for every user, waits for the demo users, seeds once, and serves profiles with proofs from S3', async () => {
    const db = await createTestDatabase('certs_server')
    cleanups.push(db.drop)
    const dataDir = await mkdtemp(join(tmpdir(), 'certs-server-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const s3 = await startTestS3()
    cleanups.push(s3.close)
    const storage = createS3Storage({ ...s3.options, prefix: 'certs' })
    const env = PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: dataDir })
    const key = await loadOrCreateSigningKey(undefined)
    const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 600 })
    const bus = createInProcessBus()
    const requests: EventEnvelope[] = []
    await bus.subscribe('identity-backfill', ['identity.users.backfill-requested.v1'], async (e) => void requests.push(e))
    const server = await start({ env, logger: silentLogger, bus, port: 0, jwks: () => issuer.jwks(), databaseUrl: db.url, storage })
    cleanups.push(async () => {
      await server.close()
      await bus.close()
      storage.destroy()
    })
    await server.relay.flush()
    expect(requests.map((r) => r.data)).toEqual([{ consumer: 'certs-users' }])

    // The demo users arrive through identity's events while seeding waits for them.
    const ids = new Map(DEMO.map((local) => [local, crypto.randomUUID()]))
    const seeding = seedDemoData(server, { companyEmailDomain: 'acme.test' })
    for (const [local, userId] of ids) {
      const branch =
        local === 'tech.seattle'
          ? 'Seattle'
          : local === 'tech.anchorage'
            ? 'Anchorage'
            : local === 'tech.tricities'
              ? 'Tri-Cities'
              : local.startsWith('new') || local === 'admin'
                ? null
                : 'Portland'
      const department =
        local === 'tech.seattle' ? 'Electricians' : local === 'tech.anchorage' ? 'Construction' : local === 'tech.tricities' ? 'Testing' : branch ? 'Service' : null
      await bus.publish({
        id: crypto.randomUUID(),
        type: 'identity.user.registered.v1',
        occurredAt: new Date().toISOString(),
        data: {
          userId,
          name: local,
          email: `${local}@acme.test`,
          isAdmin: local === 'admin',
          isManager: local === 'manager',
          managerScope: { branches: local === 'manager' ? ['Portland'] : [], departments: [] },
          branch,
          department,
          userGroup: null,
          employeeId: 'E1',
          hireDate: '2022-01-10',
        },
      })
    }
    expect(await seeding).toBeGreaterThanOrEqual(15)
    expect(await seedDemoData(server, { companyEmailDomain: 'acme.test' })).toBe(0)
    // The demo's paused technician is announced as the pause route announces one (issue 24: notify holds assignment reminders too).
    const pauses = await outboxEvents(sqlOf(server.orm), 'certs.notification-pause.changed.v1')
    expect(pauses.map((e) => Events['certs.notification-pause.changed.v1'].parse(e.data).userId)).toEqual([ids.get('tech.tricities')])
    // A restart would not ask again.
    expect(await server.users.requestBackfill()).toBe(false)

    const base = `http://127.0.0.1:${server.port}`
    const token = (local: string, over: Partial<Actor> = {}) =>
      issuer.sign({
        userId: ids.get(local)!,
        email: `${local}@acme.test`,
        name: local,
        isAdmin: local === 'admin',
        isManager: false,
        managerScope: { branches: [], departments: [] },
        ...over,
      })
    const get = async (path: string, t: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${t}` } })

    const statuses = new Set<string>()
    const badges = new Set<string | null>()
    for (const local of ['tech.portland', 'tech.seattle', 'tech.anchorage', 'tech.tricities']) {
      const profile = TechnicianProfile.parse(await (await get(`/technician/profile/${ids.get(local)}`, await token(local))).json())
      for (const c of profile.certifications) {
        statuses.add(c.status)
        badges.add(c.expiration_badge)
      }
    }
    expect([...statuses].sort()).toEqual(['Completed', 'Expired', 'Not Uploaded', 'Uploaded', 'Verified'])
    expect([...badges].sort()).toEqual(['critical', 'expired', 'notice', 'warning', null].sort())

    // A demo proof is in the bucket and served from it.
    const portland = TechnicianProfile.parse(await (await get(`/technician/profile/${ids.get('tech.portland')}`, await token('tech.portland'))).json())
    const withProof = portland.certifications.find((c) => c.file_type === 'application/pdf')!
    const proof = await get(`${withProof.file_path}?download=1`, await token('tech.portland'))
    expect(proof.status).toBe(200)
    expect(proof.headers.get('content-type')).toBe('application/pdf')
    expect(
      Buffer.from(await proof.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect((await storage.list('proofs')).length).toBeGreaterThan(5)

    // Another technician cannot open the profile; the admin overview counts the demo.
    expect((await get(`/technician/profile/${ids.get('tech.portland')}`, await token('tech.seattle'))).status).toBe(403)
    const overview = (await (await get('/admin/certifications/overview', await token('admin'))).json()) as { technicians: number; expired: number }
    expect(overview.technicians).toBe(6)
    expect(overview.expired).toBeGreaterThanOrEqual(3)

    // Six months of revenue per demo technician, a leaderboard and the revenue cards at once; one pending promotion.
    const manager = await token('manager', { isManager: true, managerScope: { branches: ['Portland'], departments: [] } })
    const history = RevenueHistoryResponse.parse(await (await get(`/revenue/user/${ids.get('tech.seattle')}`, await token('tech.seattle'))).json())
    expect(history.revenue_history).toHaveLength(6)
    expect(history.revenue_history.every((r) => r.pay_amount !== null && r.rev_pay_ratio !== null)).toBe(true)
    const board = LeaderboardResponse.parse(await (await get('/revenue/leaderboard', await token('admin'))).json())
    expect(board.rows).toHaveLength(5)
    expect(portland.revenue_data).toMatchObject({ tier_pay_rate: 25, monthly_revenue: expect.any(Number) })
    const detail = TeamMemberDetail.parse(await (await get(`/manager/team/${ids.get('tech.portland')}`, manager)).json())
    expect(detail.revenue_trend).toHaveLength(6)
    expect(detail.promotion_requests).toMatchObject([{ status: 'pending', from_tier: 1, to_tier: 2, requested_by: { name: 'manager' } }])
    expect((await fetch(`${base}/readyz`)).status).toBe(200)
    expect((await fetch(`${base}/metrics`)).status).toBe(200)
  })
})

describe('loadCertsEnv', () => {
  it('needs the engines, identity’s JWKS and a shared folder or a bucket, and picks the port', () => {
    expect(() => loadCertsEnv({})).toThrow(/DATABASE_URL[\s\S]*NATS_URL[\s\S]*IDENTITY_JWKS_URL[\s\S]*STORAGE_DIR: is required to run svc-certs on its own \(or S3_BUCKET/)
    const base = { DATABASE_URL: 'postgresql://db/x', NATS_URL: 'nats://n:4222', IDENTITY_JWKS_URL: 'http://identity:4001/auth/jwks.json' }
    expect(loadCertsEnv({ ...base, STORAGE_DIR: '/srv/certs' })).toMatchObject({ storageDir: '/srv/certs', port: 4003 })
    const s3 = loadCertsEnv({ ...base, S3_BUCKET: 'portal', S3_ENDPOINT: 'http://minio:9000', PORT: '9000' })
    expect(s3).toMatchObject({ storageDir: undefined, port: 9000, env: { S3_BUCKET: 'portal', S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'us-east-1' } })
    expect(loadCertsEnv({ ...base, S3_BUCKET: 'portal', CERTS_PORT: '4100', PORT: '9000' }).port).toBe(4100)
    expect(() => loadCertsEnv({ ...base, S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET: must be an S3 bucket name/)
  })
})
