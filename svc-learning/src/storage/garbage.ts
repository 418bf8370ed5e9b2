import type { EntityManager } from '@mikro-orm/postgresql'
import type { LearningContext } from '../context.ts'

/** A storage object (or, with `isPrefix`, every object under a prefix) that nothing refers to any more. */
export interface GarbageEntry {
  key: string
  isPrefix: boolean
}

/**
 * Records storage objects to delete, in the caller's transaction: an upload records its prefix
 * before writing (and forgets it when its rows commit); a deleted module records its file and
 * package prefix in the same transaction as the delete.
 */
export async function recordGarbage(em: EntityManager, entries: GarbageEntry[], at: Date) {
  for (const e of entries)
    await em.execute('insert into storage_garbage (key, is_prefix, created_at) values (?, ?, ?) on conflict (key) do nothing', [e.key, e.isPrefix, at])
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

/**
 * Deletes the storage objects of `storage_garbage` rows. Each row is taken in its own transaction
 * that deletes the row, then the objects, then commits: a crash leaves the row for the next sweep,
 * and an upload committing at the same moment waits for the row lock and then finds it gone.
 */
export function createGarbageCleaner(ctx: Pick<LearningContext, 'orm' | 'storage' | 'logger' | 'now'>, opts: GarbageCleanerOptions = {}) {
  const intervalMs = opts.intervalMs ?? 60_000
  const minAgeMs = opts.minAgeMs ?? 15 * 60_000
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()

  const remove = async (key: string, olderThan?: Date) => {
    return ctx.orm.em.fork().transactional(async (tx) => {
      const rows = (await tx.execute(
        olderThan
          ? 'delete from storage_garbage where key = ? and created_at < ? returning key, is_prefix'
          : 'delete from storage_garbage where key = ? returning key, is_prefix',
        olderThan ? [key, olderThan] : [key],
      )) as { key: string; is_prefix: boolean }[]
      const row = rows[0]
      if (!row) return false
      if (row.is_prefix) await ctx.storage.deletePrefix(row.key)
      else await ctx.storage.delete(row.key)
      return true
    })
  }

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = running.then(fn, fn)
    running = next.catch(() => undefined)
    return next
  }

  const cleaner = {
    /** Deletes the objects of every row older than the age limit; resolves with how many rows went. */
    sweep: () =>
      serial(async () => {
        const olderThan = new Date(ctx.now().getTime() - minAgeMs)
        const rows = (await ctx.orm.em
          .fork()
          .execute('select key from storage_garbage where created_at < ? order by created_at limit 500', [olderThan])) as { key: string }[]
        let removed = 0
        for (const { key } of rows) {
          try {
            if (await remove(key, olderThan)) removed++
          } catch (err) {
            ctx.logger.warn('storage garbage not removed', { key, err: err as Error })
          }
        }
        return removed
      }),
    /** Deletes these rows' objects now (after the transaction that recorded them committed). */
    collect: (keys: string[]) =>
      serial(async () => {
        for (const key of keys) {
          try {
            await remove(key)
          } catch (err) {
            ctx.logger.warn('storage garbage not removed', { key, err: err as Error })
          }
        }
      }),
    /** Sweeps once now and then every `intervalMs`. */
    start() {
      if (timer) return
      const tick = () => void cleaner.sweep().catch((err) => ctx.logger.warn('storage garbage sweep failed', { err: err as Error }))
      tick()
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    /** Stops the interval and waits for the sweep in hand. */
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running
    },
  }
  return cleaner
}
