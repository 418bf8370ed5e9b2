import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { MikroORM, type AnyEntity, type EntitySchema } from '@mikro-orm/postgresql'
import { Migration, Migrator } from '@mikro-orm/migrations'
import pg from 'pg'
import type { Logger } from './logger.ts'
import { InboxEntry } from './inbox.ts'
import { OutboxMessage } from './outbox.ts'

export { Migration }

export interface MigrationEntry {
  name: string
  class: new (...args: never[]) => Migration
}

/** Tables every service has: the outbox and the inbox (and, in a later migration, `idempotency_keys`). */
class PlatformTables extends Migration {
  override async up() {
    this.addSql(`create table if not exists outbox (
      id uuid primary key,
      type text not null,
      payload jsonb not null,
      occurred_at timestamptz not null,
      sent_at timestamptz,
      attempts int not null default 0)`)
    this.addSql('create index if not exists outbox_pending on outbox (occurred_at) where sent_at is null')
    this.addSql(`create table if not exists inbox (
      consumer text not null,
      event_id uuid not null,
      handled_at timestamptz not null,
      primary key (consumer, event_id))`)
  }
}

/**
 * Outbox rows recorded in the same millisecond must keep their order: a sequence decides it
 * (`occurred_at` has millisecond precision and ids are random).
 */
class OutboxSequence extends Migration {
  override async up() {
    this.addSql('alter table outbox add column if not exists seq bigserial')
    this.addSql('drop index if exists outbox_pending')
    this.addSql('create index if not exists outbox_pending_seq on outbox (seq) where sent_at is null')
  }
}

/**
 * What services keep of writes sent with an Idempotency-Key (idempotency.ts): one row per key of a
 * caller, method and path (named by their hash: a long path never outgrows the index), in progress
 * while `status` is null, then the answer when it was kept. Deleted after 24 hours.
 */
class IdempotencyKeys extends Migration {
  override async up() {
    this.addSql(`create table if not exists idempotency_keys (
      id text primary key,
      caller text not null,
      key text not null,
      method text not null,
      path text not null,
      fingerprint text not null,
      owner uuid not null,
      created_at timestamptz not null,
      status int,
      kept boolean not null default false,
      headers jsonb,
      body bytea)`)
    this.addSql('create index if not exists idempotency_keys_created on idempotency_keys (created_at)')
  }
}

export interface Database {
  orm: MikroORM
  /** The connection URL in use (a PGlite socket in single-node mode). */
  url: string
  embedded: boolean
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  /** Service name: database name on a shared server, folder name for PGlite. */
  service: string
  /** Full URL of this service's database; when absent an embedded PGlite is used. */
  url?: string
  dataDir: string
  entities: (EntitySchema<AnyEntity> | AnyEntity)[]
  migrations: MigrationEntry[]
  logger: Logger
  poolSize?: number
  /**
   * Statements run after the migrations at every start (`create or replace function ...`): rules a
   * service keeps in code beside their TypeScript twin rather than frozen in a migration. One
   * transaction under an advisory lock, so instances starting together do not race.
   */
  routines?: string[]
}

/** Runs a service's start-up routines (see `OpenDatabaseOptions.routines`). */
async function installRoutines(orm: MikroORM, service: string, statements: string[]) {
  await orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`${service}:routines`])
    for (const sql of statements) await em.execute(sql)
  })
}

/** Creates the database named in `url` on its server when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  if (!name) return
  const admin = new URL(url)
  admin.pathname = '/postgres'
  const client = new pg.Client({ connectionString: admin.toString() })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
        // Created meanwhile by another process: 42P04, or 23505 when both inserted into
        // pg_database at once (replicas of a service starting together on a fresh server).
        if (err.code !== '42P04' && err.code !== '23505') throw err
      })
    }
  } finally {
    await client.end()
  }
}

async function startEmbedded(dir: string) {
  const { PGlite } = await import('@electric-sql/pglite')
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket')
  await mkdir(dir, { recursive: true })
  const db = await PGlite.create(dir)
  // The pool holds one connection, but a connection the pool drops (after an error, or idle) is
  // still closing when its replacement connects: with the server's default of one connection the
  // replacement would be turned away.
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 4 })
  await server.start()
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address()
  return {
    url: `postgresql://postgres@127.0.0.1:${address.port}/postgres`,
    stop: async () => {
      await server.stop()
      await db.close()
    },
  }
}

/**
 * Runs `fn` while a connection of its own holds the service's migration lock (a session advisory
 * lock, released when that connection ends): MikroORM's migrator takes none, and two instances
 * migrating one database at once both create its migrations table and one fails.
 */
async function withMigrationLock<T>(url: string, service: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`${service}:migrations`])
    return await fn()
  } finally {
    await client.end()
  }
}

/** Opens a service's database (real PostgreSQL or embedded PGlite) and applies its migrations. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  let url = opts.url
  let stopEmbedded: (() => Promise<void>) | undefined
  if (url) await ensureDatabase(url)
  else {
    const embedded = await startEmbedded(resolve(join(opts.dataDir, 'pg', opts.service)))
    url = embedded.url
    stopEmbedded = embedded.stop
  }
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: [OutboxMessage, InboxEntry, ...opts.entities] as never,
    extensions: [Migrator],
    migrations: {
      migrationsList: [
        { name: '0000_platform_tables', class: PlatformTables },
        { name: '0000_platform_outbox_seq', class: OutboxSequence },
        { name: '0000_platform_idempotency', class: IdempotencyKeys },
        ...opts.migrations,
      ] as never,
      transactional: true,
      silent: true,
      snapshot: false,
    },
    pool: { min: 0, max: stopEmbedded ? 1 : (opts.poolSize ?? 10) },
    debug: false,
    allowGlobalContext: false,
  })
  // Replicas starting together on a fresh database: one migrates, the others then find it done.
  if (stopEmbedded) await orm.migrator.up()
  else await withMigrationLock(url, opts.service, () => orm.migrator.up())
  if (opts.routines?.length) await installRoutines(orm, opts.service, opts.routines)
  opts.logger.info('database ready', { embedded: Boolean(stopEmbedded) })
  return {
    orm,
    url,
    embedded: Boolean(stopEmbedded),
    async close() {
      await orm.close(true)
      await stopEmbedded?.()
    },
  }
}
