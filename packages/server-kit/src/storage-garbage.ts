import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { createBackgroundTask } from './background.ts'
import { Migration } from '@mikro-orm/migrations'
import type { Logger } from './logger.ts'
import type { Storage } from './storage.ts'

/**
 * The `storage_garbage` table of a service that stores files (learning created its own in its
 * 0002 migration; `if not exists` lets a service list this one whatever its history).
 */
export class StorageGarbageTable extends Migration {
  override async up() {
    // Storage objects to delete once nothing refers to them (a failed upload, a deleted record);
    // a cleaner removes them, so no orphan file outlives a crash between database and storage.
    this.addSql(`create table if not exists storage_garbage (
      key text primary key,
      is_prefix boolean not null,
      created_at timestamptz not null)`)
  }
}

/** A storage object (or, with `isPrefix`, every object under a prefix) that nothing refers to any more. */
export interface GarbageEntry {
  key: string
  isPrefix: boolean
}

/**
 * Records storage objects to delete, in the caller's transaction: an upload records its key or
 * prefix before writing (and forgets it when its rows commit); a deleted record (a module, a
 * proof) records its files in the same transaction as the delete.
 */
export async function recordGarbage(em: EntityManager, entries: GarbageEntry[], at: Date) {
  for (const e of entries) await em.execute('insert into storage_garbage (key, is_prefix, created_at) values (?, ?, ?) on conflict (key) do nothing', [e.key, e.isPrefix, at])
}

/**
 * Forgets an upload's garbage row when its rows commit. False when the cleaner already took it (the
 * upload outlived the cleaner's age limit and its files are gone): the caller must roll back.
 */
export async function forgetGarbage(em: EntityManager, key: string): Promise<boolean> {
  const rows = (await em.execute('delete from storage_garbage where key = ? returning key', [key])) as unknown[]
  return rows.length > 0
}

export interface GarbageCleanerOptions {
  /** How often old rows are swept (default 60 s). */
  intervalMs?: number
  /**
   * Rows younger than this are left alone by the sweep (default 15 min): an upload still being
   * received holds such a row, and an upload may take up to 10 minutes.
   */
  minAgeMs?: number
}

export type GarbageCleaner = ReturnType<typeof createGarbageCleaner>

/** What the cleaner works with. */
export interface GarbageCleanerContext {
  orm: MikroORM
  storage: Storage
  logger: Logger
  now: () => Date
}

/**
 * Deletes the storage objects of `storage_garbage` rows. Each row is taken in its own transaction
 * that deletes the row, then the objects, then commits: a crash leaves the row for the next sweep,
 * and an upload committing at the same moment waits for the row lock and then finds it gone.
 */
export function createGarbageCleaner(ctx: GarbageCleanerContext, opts: GarbageCleanerOptions = {}) {
  const minAgeMs = opts.minAgeMs ?? 15 * 60_000
  // Collections of given rows run one after another (and are waited for at stop).
  let collecting: Promise<unknown> = Promise.resolve()

  const remove = async (key: string, olderThan?: Date) => {
    return ctx.orm.em.fork().transactional(async (tx) => {
      const rows = (await tx.execute(
        olderThan ? 'delete from storage_garbage where key = ? and created_at < ? returning key, is_prefix' : 'delete from storage_garbage where key = ? returning key, is_prefix',
        olderThan ? [key, olderThan] : [key],
      )) as { key: string; is_prefix: boolean }[]
      const row = rows[0]
      if (!row) return false
      if (row.is_prefix) await ctx.storage.deletePrefix(row.key)
      else await ctx.storage.delete(row.key)
      return true
    })
  }

  const removeEach = async (keys: string[], olderThan?: Date) => {
    let removed = 0
    for (const key of keys) {
      try {
        if (await remove(key, olderThan)) removed++
      } catch (err) {
        ctx.logger.warn('storage garbage not removed', { key, err: err as Error })
      }
    }
    return removed
  }

  const task = createBackgroundTask({
    name: 'storage garbage cleaner',
    logger: ctx.logger,
    intervalMs: opts.intervalMs ?? 60_000,
    async pass() {
      const olderThan = new Date(ctx.now().getTime() - minAgeMs)
      const rows = (await ctx.orm.em.fork().execute('select key from storage_garbage where created_at < ? order by created_at limit 500', [olderThan])) as { key: string }[]
      return {
        done: await removeEach(
          rows.map((r) => r.key),
          olderThan,
        ),
        more: rows.length === 500,
      }
    },
  })

  return {
    /** Deletes the objects of every row older than the age limit; resolves with how many rows went. */
    sweep: () => task.runNow(),
    /** Deletes these rows' objects now (after the transaction that recorded them committed). */
    collect(keys: string[]): Promise<void> {
      const next = collecting.then(() => removeEach(keys))
      collecting = next.catch(() => undefined)
      return next.then(() => undefined)
    },
    /** Sweeps once now and then every `intervalMs`. */
    start: () => task.start(),
    /** Stops the interval and waits for the sweep and collections in hand. */
    async stop() {
      await task.stop()
      await collecting
    },
  }
}
