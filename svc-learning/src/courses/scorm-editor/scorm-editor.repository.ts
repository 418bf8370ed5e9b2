import type { EntityManager } from '@mikro-orm/postgresql'
import type { ScormBackup } from '@portal/contracts'
import { sqlWithParams } from '../../sql.ts'

/** {path in the package: storage key} of the files an edit replaced. */
export type FileMap = Record<string, string>

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v)

interface BackupRow {
  id: number
  backup_name: string
  files: FileMap | string
  created_at: Date | string
  creator_name: string | null
}

const toBackup = (r: BackupRow): ScormBackup => ({
  id: r.id,
  backup_name: r.backup_name,
  created_at: new Date(r.created_at).toISOString(),
  creator: r.creator_name === null ? null : { username: r.creator_name },
})

/**
 * The SCORM timing editor's revisions (`scorm_package_revisions`: the files each edit replaced)
 * and backups (`scorm_backups`). File maps are JSON documents: sent as parameters (`sqlWithParams`).
 */
export const scormEditorRepository = {
  /** Serializes the edits of one module until the transaction ends. */
  lockModule: (tx: EntityManager, moduleId: number) => sqlWithParams(tx, 'select pg_advisory_xact_lock(hashtext($1))', [`scorm-editor:${moduleId}`]),

  /** The files of the module's current revision (none when never edited). */
  async currentFiles(em: EntityManager, moduleId: number): Promise<FileMap> {
    const [row] = await sqlWithParams<{ files: FileMap | string }>(em, 'select files from scorm_package_revisions where module_id = $1 order by id desc limit 1', [moduleId])
    return row ? json(row.files) : {}
  },

  /** The files of the revision that was current at `at` (none before the first edit). */
  async filesAt(em: EntityManager, moduleId: number, at: Date): Promise<FileMap> {
    const [row] = await sqlWithParams<{ files: FileMap | string }>(
      em,
      'select files from scorm_package_revisions where module_id = $1 and created_at <= $2 order by id desc limit 1',
      [moduleId, at],
    )
    return row ? json(row.files) : {}
  },

  /** Records `files` as the module's current revision and marks the module edited. */
  async recordRevision(em: EntityManager, moduleId: number, files: FileMap): Promise<void> {
    await sqlWithParams(em, 'insert into scorm_package_revisions (module_id, files) values ($1, $2::jsonb)', [moduleId, JSON.stringify(files)])
    await sqlWithParams(em, 'update course_modules set has_edits = true, updated_at = now() where id = $1', [moduleId])
  },

  /** Stores a backup of the module's files; resolves with its id. */
  async insertBackup(tx: EntityManager, backup: { moduleId: number; name: string; files: FileMap; createdBy: string; creatorName: string; createdAt: Date }): Promise<number> {
    const [row] = await sqlWithParams<{ id: number }>(
      tx,
      'insert into scorm_backups (module_id, backup_name, files, created_by, creator_name, created_at) values ($1, $2, $3::jsonb, $4, $5, $6) returning id',
      [backup.moduleId, backup.name, JSON.stringify(backup.files), backup.createdBy, backup.creatorName, backup.createdAt],
    )
    return row!.id
  },

  /** The module's backups, newest first. */
  async backupsOf(em: EntityManager, moduleId: number): Promise<ScormBackup[]> {
    const rows = await sqlWithParams<BackupRow>(em, 'select id, backup_name, files, created_at, creator_name from scorm_backups where module_id = $1 order by id desc', [moduleId])
    return rows.map(toBackup)
  },

  /** A backup of the module with its files; null when the module has no such backup. */
  async findBackup(em: EntityManager, backupId: number, moduleId: number): Promise<{ backup: ScormBackup; files: FileMap } | null> {
    const [row] = await sqlWithParams<BackupRow>(em, 'select id, backup_name, files, created_at, creator_name from scorm_backups where id = $1 and module_id = $2', [
      backupId,
      moduleId,
    ])
    return row ? { backup: toBackup(row), files: json(row.files) } : null
  },
}
