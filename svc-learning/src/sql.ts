import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { CompiledQuery } from 'kysely'

interface QueryRunner {
  executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }>
}

/**
 * Runs one statement with real parameters (`$1`, `$2`, ...) in `em`'s transaction when it has one,
 * else on the pool. MikroORM's `execute` writes every value into the SQL text; for the large JSON
 * values of the hot paths (attempt snapshots and results, SCORM cmi trees) sending them as
 * parameters saves escaping them and PostgreSQL parsing them as literals.
 */
export async function sqlWithParams<R = Record<string, unknown>>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<R[]> {
  const runner = (em.getTransactionContext() as QueryRunner | undefined) ?? (em.getConnection().getClient() as unknown as QueryRunner)
  return (await runner.executeQuery(CompiledQuery.raw(sql, [...params]))).rows as R[]
}

interface PooledClient {
  query(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>
  /** Back to the pool; with an error, the connection is closed instead. */
  release(err?: Error): void
}
interface NativePool {
  connect(): Promise<PooledClient>
}

/** An error the server answered with (SQLSTATE code) that leaves its session usable. */
const sessionSurvives = (err: unknown) => {
  const { code, severity } = (err ?? {}) as { code?: unknown; severity?: unknown }
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && severity !== 'FATAL' && severity !== 'PANIC'
}

/**
 * A statement the database prepares once per pooled connection (a named prepared statement):
 * for the hottest paths, where parsing and planning the same SQL on every call is measurable.
 * Runs on the pool, outside any transaction.
 *
 * Any failure leaves the pool usable. An error the server answers (bad input, a foreign key) keeps
 * the connection (`pool.query` would close it); only a broken connection is dropped. The embedded
 * PGlite has one session behind all its connections, so a statement prepared on a connection
 * since closed is still there: it is deallocated and prepared again.
 */
export function preparedStatement<R = Record<string, unknown>>(orm: MikroORM, name: string, sql: string) {
  let pool: Promise<NativePool> | undefined
  return async (params: readonly unknown[]): Promise<R[]> => {
    pool ??= (orm.em.getConnection() as unknown as { getNativeClient(): Promise<NativePool> }).getNativeClient()
    const client = await (await pool).connect()
    const run = async () => (await client.query({ name, text: sql, values: [...params] })).rows as R[]
    let broken: Error | undefined
    try {
      try {
        return await run()
      } catch (err) {
        if ((err as { code?: string }).code !== '42P05') throw err
        await client.query({ text: `deallocate "${name}"` })
        return await run()
      }
    } catch (err) {
      if (!sessionSurvives(err)) broken = err as Error
      throw err
    } finally {
      client.release(broken)
    }
  }
}
