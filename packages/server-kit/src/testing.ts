import pg from 'pg'
import { createLogger } from './logger.ts'

/** Server the integration tests use (the machine's PostgreSQL). */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
/** NATS with JetStream the integration tests use. */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222'

export const silentLogger = createLogger('test', 'silent')

/** A fresh, uniquely named database on the test server; `drop()` removes it. */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${prefix.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  await admin.query(`create database "${name}"`)
  await admin.end()
  const url = new URL(TEST_PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_PG_URL })
      await c.connect()
      await c.query(`drop database if exists "${name}" with (force)`)
      await c.end()
    },
  }
}

/** A unique name for test-owned NATS streams and consumers. */
export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toUpperCase()
