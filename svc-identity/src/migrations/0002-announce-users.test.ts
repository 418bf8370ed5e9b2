import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { EventEnvelope, Events } from '@portal/contracts'
import { openDatabase } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { UserEntity, userFacts } from '../users/index.ts'
import { migrationsList } from './index.ts'

const open = (url: string, upTo?: string) =>
  openDatabase({
    service: 'identity',
    url,
    dataDir: '/tmp/unused',
    entities,
    migrations: upTo ? migrationsList.slice(0, migrationsList.findIndex((m) => m.name === upTo) + 1) : migrationsList,
    logger: silentLogger,
  })

describe('0002: announce the existing users', () => {
  it('records one identity.user.updated.v1 per user with the facts a live update would carry', async () => {
    const testDb = await createTestDatabase('identity_m2')
    try {
      const before = await open(testDb.url, '0001_identity_tables')
      await before.close()
      const c = new pg.Client({ connectionString: testDb.url })
      await c.connect()
      try {
        const insert = (email: string, extra: string, values: string) =>
          c.query(
            `insert into users (id, name, email, password_hash, email_verified, created_at, updated_at${extra})
             values (gen_random_uuid(), 'N ' || $1::text, $1, 'x', true, now(), now()${values})`,
            [email],
          )
        await insert('tech@acme.test', ', branch, department, user_group', ", 'Seattle', 'Testing', 'Crew'")
        await insert('boss@acme.test', ', is_manager, manager_scope, branch', `, true, '{"branches":["Portland"],"departments":["Service"]}', 'Portland'`)
        await insert('admin@acme.test', ', is_admin, manager_scope', `, true, '{}'`)
        await insert('new@acme.test', '', '')
      } finally {
        await c.end()
      }

      const after = await open(testDb.url)
      try {
        const em = after.orm.em.fork()
        const rows = (await em.execute('select id, type, payload, occurred_at, sent_at from outbox order by seq')) as {
          id: string
          type: string
          payload: EventEnvelope
          occurred_at: Date | string
          sent_at: Date | null
        }[]
        const users = await em.find(UserEntity, {})
        expect(rows).toHaveLength(4)
        expect(new Set(rows.map((r) => r.id)).size).toBe(4)
        for (const r of rows) {
          expect(r).toMatchObject({ type: 'identity.user.updated.v1', sent_at: null })
          const envelope = EventEnvelope.parse(r.payload)
          expect(envelope).toMatchObject({ id: r.id, type: r.type, occurredAt: new Date(r.occurred_at).toISOString() })
          const data = Events['identity.user.updated.v1'].parse(envelope.data)
          expect(data).toEqual(userFacts(users.find((u) => u.id === data.userId)!))
        }
        expect(rows.map((r) => (r.payload.data as { email: string }).email).sort()).toEqual(['admin@acme.test', 'boss@acme.test', 'new@acme.test', 'tech@acme.test'])
      } finally {
        await after.close()
      }
    } finally {
      await testDb.drop()
    }
  })
})
