import type { EntityManager } from '@mikro-orm/postgresql'
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
