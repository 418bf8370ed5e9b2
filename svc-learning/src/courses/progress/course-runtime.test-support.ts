// Test set-up of the learner-side course runtime: courses and modules inserted directly, files and
// extracted SCORM fixtures put into the harness's storage.
import { Readable } from 'node:stream'
import yauzl from 'yauzl'
import { toStoredManifest } from '../course.entity.ts'
import { parseManifest } from '../scorm-packages/manifest.ts'
import { fixturePath } from '../scorm-packages/zips.test-support.ts'
import type { Harness } from '../../harness.test-support.ts'

/** Inserts a course; `assignedTo` adds course_assignments rows. */
export async function insertCourse(h: Harness, opts: { title?: string; toAll?: boolean; assignedTo?: string[] } = {}): Promise<number> {
  const at = h.now()
  const [row] = await h.sql<{ id: number }>('insert into courses (title, is_assigned_to_all, created_at, updated_at) values (?, ?, ?, ?) returning id', [
    opts.title ?? 'Golf Basics',
    opts.toAll ?? false,
    at,
    at,
  ])
  for (const userId of opts.assignedTo ?? []) await h.sql('insert into course_assignments (course_id, user_id, assigned_at) values (?, ?, ?)', [row!.id, userId, at])
  return row!.id
}

export interface ModuleOpts {
  title?: string
  position?: number
  originalName?: string
  contentType?: string
  isScorm?: boolean
  status?: 'ready' | 'processing' | 'failed'
  error?: string | null
}

/** Inserts a module row (storage key `modules/{id}/original`); returns its id. */
export async function insertModule(h: Harness, courseId: number, o: ModuleOpts = {}): Promise<number> {
  const at = h.now()
  const isScorm = o.isScorm ?? false
  const [row] = await h.sql<{ id: number }>(
    `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, processing_error, created_at, updated_at)
     values (?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?, ?, ?) returning id`,
    [
      courseId,
      o.title ?? 'Module',
      o.position ?? 1,
      o.originalName ?? (isScorm ? 'package.zip' : 'intro.pdf'),
      o.contentType ?? (isScorm ? 'application/zip' : 'application/pdf'),
      isScorm,
      o.status ?? 'ready',
      o.error ?? null,
      at,
      at,
    ],
  )
  await h.sql('update course_modules set storage_key = ? where id = ?', [`modules/${row!.id}/original`, row!.id])
  return row!.id
}

/** Stores `bytes` as the module's single file. */
export async function putModuleFile(h: Harness, moduleId: number, bytes: Buffer) {
  const { size } = await h.storage.put(`modules/${moduleId}/original`, Readable.from([bytes]))
  await h.sql('update course_modules set size = ? where id = ?', [size, moduleId])
}

/** Extracts a real fixture into `modules/{id}/content` and fills the module's manifest columns. */
export async function installFixture(h: Harness, moduleId: number, fixture: string) {
  const prefix = `modules/${moduleId}/content`
  const zip = await yauzl.openPromise(fixturePath(fixture), { lazyEntries: true, autoClose: false })
  let manifest = ''
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue
      const chunks: Buffer[] = []
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
      const bytes = Buffer.concat(chunks)
      if (entry.fileName === 'imsmanifest.xml') manifest = bytes.toString('utf8')
      await h.storage.put(`${prefix}/${entry.fileName}`, Readable.from([bytes]))
    }
  } finally {
    zip.close()
  }
  return markInstalled(h, moduleId, manifest)
}

/** Fills a module's manifest columns for a package already extracted into `modules/{id}/content`. */
export async function markInstalled(h: Harness, moduleId: number, manifest: string) {
  const prefix = `modules/${moduleId}/content`
  const info = parseManifest(manifest)
  await h.sql(
    `update course_modules set is_scorm = true, processing_status = 'ready', manifest = ?::jsonb, content_prefix = ?, scorm_version = ?, scorm_edition = ?, sco_count = ? where id = ?`,
    [JSON.stringify(toStoredManifest(info)), prefix, info.version, info.edition, info.scoCount, moduleId],
  )
  return info
}
