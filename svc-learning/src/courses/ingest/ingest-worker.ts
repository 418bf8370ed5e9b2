import { createBackgroundTask, storableJson, storableText, type Storage } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { toStoredManifest } from '../course.entity.ts'
import { currentFiles, holdsCaptivateProject } from '../scorm-editor/package-files.ts'
import { PackageError, ingestPackage, type PackageInfo } from '../scorm-packages/index.ts'
import { ingestRepository } from './ingest.repository.ts'

/** Extracts a package into storage and describes it (the package library's `ingestPackage`). */
export type IngestPackage = (args: { zipPath: string; storage: Storage; prefix: string }) => Promise<PackageInfo>

export interface IngestWorkerOptions {
  /** How often the table is polled for work (default 2 s); uploads also kick the worker. */
  pollMs?: number
  /** How long a claimed module is held before another worker may take it over (default 10 min). */
  leaseMs?: number
  /** How often ready packages not yet checked for a Captivate project are looked for (default 1 min; also at start). */
  checkMs?: number
  ingest?: IngestPackage
}

/** Storage prefix of a module's extracted package. */
export const modulePackagePrefix = (moduleId: number) => `modules/${moduleId}/content`

/** Extracts a module's uploaded zip (`storageKey`) under its content prefix: the worker's work on each claimed module. */
export const extractModulePackage = (storage: Storage, storageKey: string, moduleId: number, ingest: IngestPackage = ingestPackage) =>
  storage.withLocalFile(storageKey, (zipPath) => ingest({ zipPath, storage, prefix: modulePackagePrefix(moduleId) }))

export type IngestWorker = ReturnType<typeof createIngestWorker>

/**
 * Ingests uploaded packages in the background: claims one `processing` module at a time (with a
 * lease, `skip locked`, so several instances share the work), extracts it under
 * `modules/<id>/content` and marks it ready with its manifest, or failed with the package
 * library's message. Unexpected errors (storage, database) leave the module for a retry once the
 * lease has run out. A package marked ready is also marked for whether it holds a Captivate project
 * (Edit SCORM is offered only then); packages stored before that check are checked in the
 * background, at start and then every `checkMs`.
 */
export function createIngestWorker(ctx: Pick<LearningContext, 'orm' | 'storage' | 'logger' | 'now'>, opts: IngestWorkerOptions = {}) {
  const pollMs = opts.pollMs ?? 2_000
  const leaseMs = opts.leaseMs ?? 10 * 60_000
  const ingest: IngestPackage = opts.ingest ?? ingestPackage

  const claim = () => ingestRepository.claimNext(ctx.orm.em.fork(), leaseMs)

  /** Ingests one waiting package; false when there was none. */
  const processOne = async (): Promise<boolean> => {
    const job = await claim()
    if (!job) return false
    const id = job.id
    const prefix = modulePackagePrefix(id)
    try {
      const info = await extractModulePackage(ctx.storage, job.storageKey, id, ingest)
      const manifest = toStoredManifest(info)
      // The Timing Editor's own reading of the extracted package: what Edit SCORM would open. A cmi5
      // course is no Captivate project (and a lone cmi5.xml extracts nothing to read).
      const scormEditable = info.version === 'cmi5' ? false : await holdsCaptivateProject(ctx.storage, prefix)
      // Only a module still waiting is updated: one deleted meanwhile is not brought back.
      const updated = await ingestRepository.markReady(ctx.orm.em.fork(), id, {
        scormVersion: info.version,
        scormEdition: info.edition,
        manifestJson: storableJson(manifest),
        scoCount: info.scoCount,
        contentPrefix: prefix,
        scormEditable,
        at: ctx.now(),
      })
      if (!updated) await ctx.storage.deletePrefix(prefix)
      else ctx.logger.info('package ingested', { moduleId: id, version: info.version, scoCount: info.scoCount, files: info.fileCount })
    } catch (err) {
      if (!(err instanceof PackageError)) {
        // Deleted while it was being extracted (its upload went with it): what was written is garbage.
        if (!(await ingestRepository.isWaiting(ctx.orm.em.fork(), id))) {
          await ctx.storage.deletePrefix(prefix)
          ctx.logger.info('package deleted while it was ingested', { moduleId: id })
          return true
        }
        ctx.logger.error('package ingest failed; will retry after the lease', { moduleId: id, err: err as Error })
        return true
      }
      await ctx.storage.deletePrefix(prefix)
      // The message may quote the package (an entry name with a NUL): made storable, so the module is marked failed.
      await ingestRepository.markFailed(ctx.orm.em.fork(), id, storableText(err.message), ctx.now())
      ctx.logger.info('package rejected', { moduleId: id, code: err.code, message: err.message })
    }
    return true
  }

  const task = createBackgroundTask({
    name: 'package ingest worker',
    logger: ctx.logger,
    intervalMs: pollMs,
    // One package at a time, each its own pass: `stop()` waits for the package in hand only.
    async pass() {
      return (await processOne()) ? { done: 1, more: true } : 0
    },
  })

  // Ready packages stored before the Captivate check, one at a time. One whose check fails (storage)
  // stays unknown until the next pass; the others are not held up by it.
  const check = createBackgroundTask({
    name: 'stored package project check',
    logger: ctx.logger,
    intervalMs: opts.checkMs ?? 60_000,
    async pass({ stopping }) {
      const failed: number[] = []
      let done = 0
      for (;;) {
        if (stopping()) return done
        const em = ctx.orm.em.fork()
        const next = await ingestRepository.nextUnchecked(em, failed)
        if (!next) return done
        try {
          const editable = await holdsCaptivateProject(ctx.storage, next.contentPrefix, await currentFiles(em, next.id))
          await ingestRepository.markChecked(em, next.id, editable)
          done++
        } catch (err) {
          failed.push(next.id)
          ctx.logger.warn('stored package not checked for a Captivate project; will retry', { moduleId: next.id, err: err as Error })
        }
      }
    },
  })

  return {
    /** Ingests every waiting package (one at a time); resolves with how many were taken. */
    drain: () => task.runNow(),
    /** Checks every ready package not yet known to hold a Captivate project or not; resolves with how many were checked. */
    checkStored: () => check.runNow(),
    /** Looks for work now (after an upload committed); a no-op until `start()`. */
    kick: () => task.kick(),
    /** Starts polling (and looks for work at once), and checks stored packages. */
    start: () => {
      task.start()
      check.start()
    },
    /** Stops polling and waits for the package in hand. */
    stop: async () => {
      await Promise.all([task.stop(), check.stop()])
    },
  }
}
