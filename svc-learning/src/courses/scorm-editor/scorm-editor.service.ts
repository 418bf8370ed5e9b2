import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { SCORM_EDITOR_MESSAGES as M, type EditTimingFields, type EditTimingResponse, type ScormAnalyzeResponse, type ScormBackup, type ScormVerification } from '@portal/contracts'
import {
  baseName,
  CaptivateError,
  editCaptivateProject,
  formatDifference,
  formatHms,
  mp4DurationSeconds,
  parseCaptivateProject,
  parseDuration,
  projectRoot,
  type CaptivateFiles,
  type CaptivateProject,
} from '@portal/contracts/captivate'
import { AppError, badRequest, conflict, forgetGarbage, notFound, recordGarbage, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { requireModule, toCourseModule, type ModuleRow } from '../access.ts'
import {
  currentFiles,
  decodeText,
  locateProjectFiles,
  packageKey,
  readAll,
  readCaptivateProject,
  recordRevision,
  sha256,
  type FileMap,
  type ProjectFiles,
} from './package-files.ts'
import { scormEditorRepository } from './scorm-editor.repository.ts'

/** How a CaptivateError answers. */
function captivateFailure(err: CaptivateError): AppError {
  if (err.code === 'unreadable') return new AppError(422, 'project_unreadable', err.message)
  if (err.code === 'unknown_slide') return new AppError(404, 'slide_not_found', err.message)
  return badRequest(err.message, err.code)
}

/** Bytes read from each end of a video to find its `mvhd` box (the `moov` box sits at one end). */
const VIDEO_PROBE_BYTES = 256 * 1024

export function createScormEditorService(ctx: LearningContext) {
  const { orm, storage, now, logger } = ctx

  /** An admin's ready SCORM module, with its course. */
  const editableModule = async (em: EntityManager, actor: Actor, moduleId: number): Promise<ModuleRow & { content_prefix: string }> => {
    const { module } = await requireModule(em, actor, moduleId)
    if (!module.is_scorm) throw badRequest(M.notScorm, 'not_scorm')
    if (module.processing_status !== 'ready' || !module.content_prefix) throw conflict(M.notReady, 'package_not_ready')
    return module as ModuleRow & { content_prefix: string }
  }

  const keyOf = (module: { content_prefix: string }, edited: FileMap, path: string | null) => packageKey(module.content_prefix, edited, path)

  const parse = (files: CaptivateFiles): CaptivateProject => {
    try {
      return parseCaptivateProject(files)
    } catch (err) {
      if (err instanceof CaptivateError) throw captivateFailure(err)
      throw err
    }
  }

  /** Seconds of a video in storage, from its mvhd box at either end; null when not found. */
  const videoSeconds = async (key: string): Promise<number | null> => {
    const info = await storage.stat(key)
    if (!info || info.size === 0) return null
    const head = await readAll(await storage.get(key, { start: 0, end: Math.min(info.size, VIDEO_PROBE_BYTES) - 1 }))
    const fromHead = mp4DurationSeconds(head)
    if (fromHead !== null || info.size <= VIDEO_PROBE_BYTES) return fromHead
    return mp4DurationSeconds(await readAll(await storage.get(key, { start: info.size - VIDEO_PROBE_BYTES, end: info.size - 1 })))
  }

  /**
   * Runs `change` on the module's current files under a per-module lock, with a backup of them
   * first. New objects go under a garbage-recorded prefix; ONE transaction records the backup and
   * the new revision and forgets that prefix, so learners see the old files or all the new ones,
   * and a failure leaves the package as it was (its objects are deleted).
   */
  const changePackage = async <T>(
    actor: Actor,
    moduleId: number,
    backupName: (project: CaptivateProject) => string,
    change: (
      current: ProjectFiles & { module: { content_prefix: string }; edited: FileMap; project: CaptivateProject },
      put: (path: string, bytes: Uint8Array | Readable) => Promise<string>,
    ) => Promise<{ files: FileMap; result: T }>,
  ): Promise<T & { backupId: number }> => {
    const em = orm.em.fork()
    const module = await editableModule(em, actor, moduleId)
    const prefix = `modules/${module.id}/edits/${randomUUID()}`
    await em.fork().transactional((tx) => recordGarbage(tx, [{ key: prefix, isPrefix: true }], now()))
    try {
      return await em.fork().transactional(async (tx) => {
        await scormEditorRepository.lockModule(tx, module.id)
        const edited = await currentFiles(tx, module.id)
        const { files: current, project } = await readCaptivateProject(storage, module.content_prefix, edited)
        // The backup: the project files' exact bytes, copied, and every file edited so far.
        const backupFiles: FileMap = { ...edited }
        for (const which of ['projectTxt', 'projectJs'] as const) {
          const path = current.paths[which]
          const bytes = current.bytes[which]
          if (path && bytes) {
            const key = `${prefix}/backup/${path}`
            await storage.put(key, Readable.from([bytes]))
            backupFiles[path] = key
          }
        }
        let n = 0
        const put = async (path: string, bytes: Uint8Array | Readable) => {
          const key = `${prefix}/new/${++n}-${baseName(path)}`
          await storage.put(key, bytes instanceof Readable ? bytes : Readable.from([bytes]))
          return key
        }
        const { files, result } = await change({ ...current, module, edited, project }, put)
        const backupId = await scormEditorRepository.insertBackup(tx, {
          moduleId: module.id,
          name: backupName(project),
          files: backupFiles,
          createdBy: actor.userId,
          creatorName: actor.name || actor.email,
          createdAt: now(),
        })
        await recordRevision(tx, module.id, files)
        if (!(await forgetGarbage(tx, prefix))) throw conflict('The edit took too long; try again', 'edit_expired')
        return { ...result, backupId }
      })
    } catch (err) {
      await storage.deletePrefix(prefix).catch((e: unknown) => logger.warn('failed edit not cleaned up yet', { prefix, err: e as Error }))
      await em
        .fork()
        .transactional((tx) => forgetGarbage(tx, prefix))
        .catch(() => undefined)
      if (err instanceof CaptivateError) throw captivateFailure(err)
      throw err
    }
  }

  const stamp = () => now().toISOString().replace('T', ' ').slice(0, 19)

  return {
    /** POST /scorm-editor/analyze. */
    async analyze(actor: Actor, moduleId: number): Promise<ScormAnalyzeResponse> {
      const em = orm.em.fork()
      const module = await editableModule(em, actor, moduleId)
      const edited = await currentFiles(em, module.id)
      // The same reading as the stored package's check at ingest (`holdsCaptivateProject`).
      let read: Awaited<ReturnType<typeof readCaptivateProject>>
      try {
        read = await readCaptivateProject(storage, module.content_prefix, edited)
      } catch (err) {
        if (err instanceof CaptivateError) throw captivateFailure(err)
        throw err
      }
      const { files, project } = read
      const root = projectRoot(files.paths)
      const sources = [...new Set(project.slides.flatMap((s) => (s.video ? [s.video.src] : [])))]
      const videos = await Promise.all(
        sources.map(async (src) => {
          const measured = await videoSeconds(keyOf(module, edited, `${root}${src}`)!).catch(() => null)
          const frames = project.slides.find((s) => s.video?.src === src)!.video!.durationInFrames
          const seconds = Math.round((measured ?? frames / project.frameRate) * 100) / 100
          return { fileName: baseName(src), estimatedDurationSeconds: seconds, estimatedDurationFormatted: formatHms(seconds) }
        }),
      )
      return {
        module: toCourseModule(module),
        analysis: {
          referencedVideo: sources[0] ? baseName(sources[0]) : null,
          videos,
          videoSlides: project.slides
            .filter((s) => s.video)
            .map((s) => ({
              id: s.id,
              title: s.title,
              name: s.name,
              durationInSeconds: s.durationInFrames / project.frameRate,
              durationInFrames: s.durationInFrames,
              durationFormatted: formatHms(s.durationInFrames / project.frameRate),
              video: s.video!.src,
            })),
          frameRate: project.frameRate,
        },
      }
    },

    /**
     * POST /scorm-editor/edit-timing: a name-only update when only a name is given, else a
     * duration update (of a video slide), optionally with a replacement video stored at the
     * slide's video path.
     */
    async editTiming(actor: Actor, input: EditTimingFields, video: { key: string } | null): Promise<EditTimingResponse> {
      const name = input.slideName?.trim() ? input.slideName.trim() : undefined
      const durationText = input.duration?.trim() ?? ''
      const nameOnly = name !== undefined && durationText === '' && !video
      let seconds: number | null = null
      if (!nameOnly) {
        if (durationText === '' && !video) throw badRequest(M.enterDuration, 'duration_required')
        if (durationText !== '') {
          seconds = parseDuration(durationText, { allowMinutes: true })
          if (seconds === null) throw badRequest('Enter the duration as MM:SS or HH:MM:SS', 'bad_duration')
        }
      }
      return changePackage<Omit<EditTimingResponse, 'backupId'>>(
        actor,
        input.moduleId,
        (project) => {
          const slide = project.slides.find((s) => s.id === input.slideId)
          return `Before ${nameOnly ? 'renaming' : 'retiming'} "${slide?.name ?? input.slideId}" (${stamp()})`
        },
        async (current, put) => {
          const slide = current.project.slides.find((s) => s.id === input.slideId)
          if (!slide) throw new CaptivateError('Slide not found in the project configuration', 'unknown_slide')
          const files: FileMap = { ...current.edited }
          let videoReplaced = false
          if (!nameOnly) {
            if (!slide.video) throw badRequest(M.noVideo, 'no_video')
            if (video) {
              const root = projectRoot(current.paths)
              const key = await put(`${root}${slide.video.src}`, await storage.get(video.key))
              files[`${root}${slide.video.src}`] = key
              videoReplaced = true
              if (seconds === null) {
                seconds = await videoSeconds(key)
                if (seconds === null) throw badRequest(M.enterDuration, 'duration_required')
              }
            }
          }
          const frames = seconds === null ? undefined : Math.round(seconds * current.project.frameRate)
          const out = editCaptivateProject(current.text, { slideId: slide.id, name, durationInFrames: frames })
          for (const which of ['projectTxt', 'projectJs'] as const) {
            const path = current.paths[which]
            const text = out.files[which]
            if (path && text !== null && text !== current.text[which]) files[path] = await put(path, new TextEncoder().encode(text))
          }
          const slideName =
            name === undefined
              ? undefined
              : {
                  from: slide.name,
                  to: out.slide.name,
                  slideFoundAtLine: out.slideFoundAtLine,
                  totalLines: out.totalLines,
                  filesUpdated: { mainFile: out.filesUpdated.projectJs, companionFile: out.filesUpdated.projectTxt },
                }
          if (nameOnly) return { files, result: { message: M.saved, changes: { slideName } } }
          const deltaSeconds = out.deltaFrames / current.project.frameRate
          const formatted = formatDifference(deltaSeconds)
          return {
            files,
            result: {
              message: M.timingUpdated(formatted),
              changes: {
                ...(slideName && { slideName }),
                timeDifference: { frames: out.deltaFrames, seconds: deltaSeconds, formatted },
                oldDuration: formatHms(slide.durationInFrames / current.project.frameRate),
                newDuration: formatHms(out.slide.durationInFrames / current.project.frameRate),
                videoReplaced,
              },
            },
          }
        },
      )
    },

    /** GET /scorm-editor/backups/{moduleId}, newest first. */
    async backups(actor: Actor, moduleId: number): Promise<{ backups: ScormBackup[] }> {
      const em = orm.em.fork()
      const module = await editableModule(em, actor, moduleId)
      return { backups: await scormEditorRepository.backupsOf(em, module.id) }
    },

    /** POST /scorm-editor/restore: the backup's exact files become current (after a backup of the current ones). */
    async restore(actor: Actor, input: { moduleId: number; backupId: number }) {
      const em = orm.em.fork()
      await editableModule(em, actor, input.moduleId)
      const found = await scormEditorRepository.findBackup(em, input.backupId, input.moduleId)
      if (!found) throw notFound(M.backupNotFound, 'backup_not_found')
      const { backup, files } = found
      await changePackage(
        actor,
        input.moduleId,
        () => `Before restoring "${backup.backup_name}" (${stamp()})`,
        async (current) => {
          // A backup must still read as project data: never make current what could not be edited again.
          const restored = async (path: string | null) => {
            if (!path) return null
            const key = files[path] ?? `${current.module.content_prefix}/${path}`
            return decodeText(await readAll(await storage.get(key)))
          }
          parse({ projectTxt: await restored(current.paths.projectTxt), projectJs: await restored(current.paths.projectJs) })
          return { files, result: {} }
        },
      )
      return { message: M.restored(backup.backup_name), restoredFrom: backup }
    },

    /** GET /scorm-editor/verify/{moduleId}: the project files a new launch reads, checked. */
    async verify(actor: Actor, moduleId: number): Promise<ScormVerification> {
      const em = orm.em.fork()
      const module = await editableModule(em, actor, moduleId)
      const edited = await currentFiles(em, module.id)
      const paths = await locateProjectFiles(storage, module.content_prefix, edited)
      let slideCount = 0
      let error: string | null = null
      const texts: CaptivateFiles = { projectTxt: null, projectJs: null }
      const check = async (which: 'projectTxt' | 'projectJs') => {
        const path = paths[which]
        const key = keyOf(module, edited, path)
        const info = key ? await storage.stat(key) : null
        const bytes = info && key ? await readAll(await storage.get(key)) : null
        texts[which] = bytes && decodeText(bytes)
        let parses = false
        if (texts[which] !== null) {
          try {
            parseCaptivateProject(which === 'projectTxt' ? { projectTxt: texts[which], projectJs: null } : { projectTxt: null, projectJs: texts[which] })
            parses = true
          } catch {
            parses = false
          }
        }
        return {
          path,
          key,
          exists: info !== null,
          size: info?.size ?? null,
          lastModified: info ? info.modifiedAt.toISOString() : null,
          sha256: bytes ? sha256(bytes) : null,
          parses,
          edited: path !== null && edited[path] !== undefined,
        }
      }
      const files = { projectTxt: await check('projectTxt'), projectJs: await check('projectJs') }
      try {
        slideCount = parseCaptivateProject(texts).slides.length
      } catch (err) {
        error = err instanceof Error ? err.message : String(err)
      }
      return { moduleId: module.id, s3Key: module.content_prefix, timestamp: now().toISOString(), hasEdits: module.has_edits, slideCount, error, files }
    },
  }
}
export type ScormEditorService = ReturnType<typeof createScormEditorService>
