import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Migration, openDatabase, type MigrationEntry } from './db.ts'
import { recordEvent } from './outbox.ts'
import { TEST_PG_URL, silentLogger, uniqueName } from './testing.ts'

class CreateNotes extends Migration {
  override async up() {
    this.addSql('create table notes (id serial primary key, body text not null)')
  }
}
const migrations: MigrationEntry[] = [{ name: '0001_notes', class: CreateNotes }]

describe('openDatabase with embedded PGlite', () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'server-kit-pglite-'))
  })
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('applies the migrations and keeps the data across close and reopen', async () => {
    const open = () => openDatabase({ service: 'pglite-test', dataDir, entities: [], migrations, logger: silentLogger })
    const first = await open()
    expect(first.embedded).toBe(true)
    expect(first.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/)
    await first.orm.em.fork().execute("insert into notes (body) values ('kept')")
    const event = await first.orm.em.fork().transactional(async (em) => recordEvent(em, 'identity.user.deleted.v1', { userId: crypto.randomUUID() }))
    await first.close()

    const second = await open()
    try {
      const notes = (await second.orm.em.fork().execute('select body from notes')) as { body: string }[]
      expect(notes).toEqual([{ body: 'kept' }])
      const outbox = (await second.orm.em.fork().execute('select id, seq from outbox')) as { id: string }[]
      expect(outbox.map((r) => r.id)).toEqual([event.id])
      const applied = (await second.orm.em.fork().execute('select name from mikro_orm_migrations order by id')) as { name: string }[]
      expect(applied.map((r) => r.name)).toEqual(['0000_platform_tables', '0000_platform_outbox_seq', '0000_platform_idempotency', '0001_notes'])
    } finally {
      await second.close()
    }
  })
})

describe('openDatabase on PostgreSQL', () => {
  const url = new URL(TEST_PG_URL)
  url.pathname = `/${uniqueName('kit_db_race').toLowerCase()}`
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: TEST_PG_URL })
    await admin.connect()
    await admin.query(`drop database if exists "${url.pathname.slice(1)}" with (force)`)
    await admin.end()
  })

  it('creates and migrates a fresh database once when instances start together (replicas)', async () => {
    const open = () => openDatabase({ service: 'race-test', url: url.toString(), dataDir: '', entities: [], migrations, logger: silentLogger })
    const dbs = await Promise.all([open(), open(), open()])
    try {
      const applied = (await dbs[0]!.orm.em.fork().execute('select name from mikro_orm_migrations order by id')) as { name: string }[]
      expect(applied.map((r) => r.name)).toEqual(['0000_platform_tables', '0000_platform_outbox_seq', '0000_platform_idempotency', '0001_notes'])
    } finally {
      await Promise.all(dbs.map((d) => d.close()))
    }
  })
})
