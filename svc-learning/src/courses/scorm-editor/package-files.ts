import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { projectFilePaths } from '@portal/contracts/captivate'
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

export async function readAll(stream: Readable, max = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > max) throw new Error('file too large to edit')
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
