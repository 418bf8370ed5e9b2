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

interface NativePool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>
}

/**
 * A statement the database prepares once per pooled connection (a named prepared statement):
 * for the hottest paths, where parsing and planning the same SQL on every call is measurable.
 * Runs on the pool, outside any transaction.
 */
export function preparedStatement<R = Record<string, unknown>>(orm: MikroORM, name: string, sql: string) {
  let pool: Promise<NativePool> | undefined
  return async (params: readonly unknown[]): Promise<R[]> => {
    pool ??= (orm.em.getConnection() as unknown as { getNativeClient(): Promise<NativePool> }).getNativeClient()
    return (await (await pool).query({ name, text: sql, values: [...params] })).rows as R[]
  }
}
