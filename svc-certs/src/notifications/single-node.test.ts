import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createGarbageCleaner, createLocalStorage, createTokenIssuer, createTokenVerifier, loadOrCreateSigningKey, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createApp } from '../app.ts'
import { migrationsList } from '../migrations/index.ts'
import { ledgerRoutines } from '../compliance/index.ts'
import { entities } from '../server.ts'

// Single-node mode: embedded PGlite has one connection, so a run must never query outside the
// transaction it holds (it would wait for itself).
it('runs the daily check and the weekly report on embedded PGlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'certs-pglite-'))
  const db = await openDatabase({ service: 'certs', dataDir: dir, entities, migrations: migrationsList, routines: ledgerRoutines('UTC'), logger: silentLogger })
  const jwt = { issuer: 'portal-identity', audience: 'portal' }
  const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { ...jwt, ttlSeconds: 3600 })
  const storage = createLocalStorage(join(dir, 'storage'))
  const garbage = createGarbageCleaner({ orm: db.orm, storage, logger: silentLogger, now: () => new Date() })
  const { app, runner } = createApp({ orm: db.orm, verifier: createTokenVerifier(issuer.jwks(), jwt), storage, garbage, logger: silentLogger })
  try {
    expect(db.embedded).toBe(true)
    const sql = (q: string, p: unknown[] = []) => db.orm.em.getConnection().execute(q, p)
    const [tech, admin] = [crypto.randomUUID(), crypto.randomUUID()]
    await sql(
      "insert into users (id, name, email, is_admin, is_manager, branch, department, occurred_at) values (?, 'T', 't@x.test', false, false, 'Portland', 'Service', now())",
      [tech],
    )
    await sql("insert into users (id, name, email, is_admin, is_manager, occurred_at) values (?, 'A', 'a@x.test', true, false, now())", [admin])
    await sql("insert into certification_types (name, code, tier_level, upload_required, is_active, created_at, updated_at) values ('A', 'A', 0, false, true, now(), now())")
    await sql('insert into technician_certifications (user_id, certification_id, expiration_date, created_at, updated_at) values (?, 1, current_date + 5, now(), now())', [tech])
    await sql("update notification_configs set manager_email = 'm@x.test', is_active = true where branch = 'Portland' and department = 'Service'")
    const token = await issuer.sign({ userId: admin, email: 'a@x.test', name: 'A', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } })
    const trigger = async (kind: string) => {
      const res = await app.request(`/certification-notifications/trigger/${kind}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
      return ((await res.json()) as { run: { published: number } }).run.published
    }
    expect(await trigger('daily')).toBe(2) // the technician's 7-day notice and the manager's escalation
    expect(await trigger('daily')).toBe(0)
    expect(await trigger('weekly')).toBe(1)
    // Migration 0010 announced the 14 configurations (SQL-built events, on PGlite too).
    expect(await sql("select count(*)::int as n from outbox where type = 'certs.notification-config.changed.v1'")).toEqual([{ n: 14 }])
    expect(((await sql("select type from outbox where type <> 'certs.notification-config.changed.v1' order by seq")) as { type: string }[]).map((r) => r.type)).toEqual([
      'certs.certification.expiring.v1',
      'certs.compliance.report-compiled.v1',
    ])
  } finally {
    await runner.stop()
    await garbage.stop()
    await db.close()
    await rm(dir, { recursive: true, force: true })
  }
}, 60_000)
