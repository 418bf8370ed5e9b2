import type { EntityManager } from '@mikro-orm/postgresql'
import type { ScormVersion } from '@portal/contracts'

/** What the ingest worker stores of an extracted package. */
export interface IngestedModule {
  scormVersion: ScormVersion
  scormEdition: string | null
  /** The stored manifest, already made storable JSON text. */
  manifestJson: string
  scoCount: number
  contentPrefix: string
  /** It holds a Captivate project the Timing Editor edits. */
  scormEditable: boolean
  at: Date
}

/** The ingest worker's queue: modules whose package waits (`processing_status = 'processing'`), leased one at a time. */
export const ingestRepository = {
  /** Leases the oldest waiting module whose lease ran out (skipping ones other workers hold), or undefined. */
  async claimNext(em: EntityManager, leaseMs: number): Promise<{ id: number; storageKey: string } | undefined> {
    const [row] = (await em.execute(
      `update course_modules set lease_until = now() + (? * interval '1 millisecond')
        where id = (select id from course_modules
                     where processing_status = 'processing' and (lease_until is null or lease_until < now())
                     order by id limit 1 for update skip locked)
        returning id, storage_key`,
      [leaseMs],
    )) as { id: number; storage_key: string }[]
    return row ? { id: Number(row.id), storageKey: row.storage_key } : undefined
  },

  /** Marks the module ready with its package's facts, only while it still waits; false when it no longer does (deleted meanwhile). */
  async markReady(em: EntityManager, id: number, m: IngestedModule): Promise<boolean> {
    const rows = (await em.execute(
      `update course_modules set processing_status = 'ready', processing_error = null, lease_until = null,
          scorm_version = ?, scorm_edition = ?, manifest = ?::jsonb, sco_count = ?, content_prefix = ?, scorm_editable = ?, updated_at = ?
        where id = ? and processing_status = 'processing' returning id`,
      [m.scormVersion, m.scormEdition, m.manifestJson, m.scoCount, m.contentPrefix, m.scormEditable, m.at, id],
    )) as unknown[]
    return rows.length > 0
  },

  /**
   * The next ready package not yet checked for a Captivate project (stored before the check
   * existed), not among `skip`; undefined when none is left.
   */
  async nextUnchecked(em: EntityManager, skip: readonly number[]): Promise<{ id: number; contentPrefix: string } | undefined> {
    const [row] = (await em.execute(
      `select id, content_prefix from course_modules
        where is_scorm and processing_status = 'ready' and scorm_editable is null and content_prefix is not null
          and not (id = any(?::int[]))
        order by id limit 1`,
      [`{${skip.join(',')}}`],
    )) as { id: number; content_prefix: string }[]
    return row ? { id: Number(row.id), contentPrefix: row.content_prefix } : undefined
  },

  /** Records whether a ready package holds a Captivate project, unless another check did first. */
  markChecked: (em: EntityManager, id: number, editable: boolean) =>
    em.execute("update course_modules set scorm_editable = ? where id = ? and processing_status = 'ready' and scorm_editable is null", [editable, id]),

  /** The module still waits for its package. */
  async isWaiting(em: EntityManager, id: number): Promise<boolean> {
    const rows = (await em.execute("select 1 from course_modules where id = ? and processing_status = 'processing'", [id])) as unknown[]
    return rows.length > 0
  },

  /** Marks a waiting module failed with the (storable) message. */
  markFailed: (em: EntityManager, id: number, message: string, at: Date) =>
    em.execute(
      `update course_modules set processing_status = 'failed', processing_error = ?, lease_until = null, updated_at = ?
        where id = ? and processing_status = 'processing'`,
      [message, at, id],
    ),
}
