import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { CaptivateError, parseCaptivateProject, projectFilePaths, type CaptivateFiles, type CaptivateProject } from '@portal/contracts/captivate'
import type { Storage } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { ttlCache } from '../../ttl-cache.ts'
import { scormEditorRepository, type FileMap } from './scorm-editor.repository.ts'

export type { FileMap } from './scorm-editor.repository.ts'

/** The files of the module's current revision (none when never edited). */
export const currentFiles = (em: EntityManager, moduleId: number): Promise<FileMap> => scormEditorRepository.currentFiles(em, moduleId)

/** Records `files` as the module's current revision (the caller's transaction makes it visible at once). */
export const recordRevision = (em: EntityManager, moduleId: number, files: FileMap): Promise<void> => scormEditorRepository.recordRevision(em, moduleId, files)

/**
 * Where a learner's launch reads an edited package's files: the revision that was current when
 * the launch was issued, so every file of one launch comes from the same revision (old or new,
 * never a mix) whenever an edit commits. Revisions never change, so they are cached.
 */
export function createEditedFiles(ctx: LearningContext) {
  const revisionAt = ttlCache({ ttlMs: 60_000, max: 5000 }, async (_key: string, moduleId: number, issuedAt: number): Promise<FileMap> => {
    return scormEditorRepository.filesAt(ctx.orm.em.fork(), moduleId, new Date(issuedAt))
  })
  return {
    /** The storage key of `path` (relative to the package root) for a launch issued at `issuedAt`, or null when it is not edited. */
    async keyOf(moduleId: number, path: string, issuedAt: number): Promise<string | null> {
      const files = await revisionAt(`${moduleId}:${issuedAt}`, moduleId, issuedAt)
      return files[path] ?? null
    },
  }
}
export type EditedFiles = ReturnType<typeof createEditedFiles>

/** Where the project files of an extracted package sit (`projectFilePaths` over its files and the edited ones). */
export async function locateProjectFiles(storage: Storage, prefix: string, edited: FileMap): Promise<{ projectTxt: string | null; projectJs: string | null }> {
  return projectFilePaths([...new Set([...(await storage.list(prefix)).map((k) => k.slice(prefix.length + 1)), ...Object.keys(edited)])])
}

/** A file larger than the editor reads into memory. */
export class FileTooLargeError extends Error {
  constructor() {
    super('file too large to edit')
  }
}

/** The project files of an extracted package as the editor reads them: where they sit, their storage keys, bytes and text. */
export interface ProjectFiles {
  paths: { projectTxt: string | null; projectJs: string | null }
  keys: { projectTxt: string | null; projectJs: string | null }
  bytes: { projectTxt: Buffer | null; projectJs: Buffer | null }
  text: CaptivateFiles
}

/** The storage key of `path` in a package extracted under `prefix`, edited or not. */
export const packageKey = (prefix: string, edited: FileMap, path: string | null) => (path === null ? null : (edited[path] ?? `${prefix}/${path}`))

/**
 * Reads the project files of the package extracted under `prefix` (with its edited files); throws
 * CaptivateError `unreadable` when one is not UTF-8 text.
 */
export async function readProjectFiles(storage: Storage, prefix: string, edited: FileMap): Promise<ProjectFiles> {
  const paths = await locateProjectFiles(storage, prefix, edited)
  const keys = { projectTxt: packageKey(prefix, edited, paths.projectTxt), projectJs: packageKey(prefix, edited, paths.projectJs) }
  const load = async (key: string | null) => (key && (await storage.stat(key)) ? readAll(await storage.get(key)) : null)
  const bytes = { projectTxt: await load(keys.projectTxt), projectJs: await load(keys.projectJs) }
  const text: CaptivateFiles = {
    projectTxt: bytes.projectTxt && decodeText(bytes.projectTxt),
    projectJs: bytes.projectJs && decodeText(bytes.projectJs),
  }
  if ((bytes.projectTxt && text.projectTxt === null) || (bytes.projectJs && text.projectJs === null)) throw new CaptivateError(M.unreadable, 'unreadable')
  return { paths, keys, bytes, text }
}

/**
 * The Adobe Captivate project of the package extracted under `prefix`: its files read and parsed
 * as the Timing Editor does; throws CaptivateError `unreadable` ("Could not find or parse project
 * configuration files") when it holds none.
 */
export async function readCaptivateProject(storage: Storage, prefix: string, edited: FileMap): Promise<{ files: ProjectFiles; project: CaptivateProject }> {
  const files = await readProjectFiles(storage, prefix, edited)
  return { files, project: parseCaptivateProject(files.text) }
}

/**
 * Whether the package extracted under `prefix` holds a Captivate project the Timing Editor can
 * open (the one detection: `readCaptivateProject` succeeds). Storage failures are thrown, not
 * answered false.
 */
export async function holdsCaptivateProject(storage: Storage, prefix: string, edited: FileMap = {}): Promise<boolean> {
  try {
    await readCaptivateProject(storage, prefix, edited)
    return true
  } catch (err) {
    if (err instanceof CaptivateError || err instanceof FileTooLargeError) return false
    throw err
  }
}

export async function readAll(stream: Readable, max = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > max) throw new FileTooLargeError()
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Decodes project data text strictly (a file that is not UTF-8 cannot be rewritten faithfully). */
export function decodeText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}
