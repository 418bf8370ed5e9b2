import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { z } from 'zod'
import {
  AnalyzeScormBody,
  EditTimingFields,
  EditTimingResponse,
  RestoreScormBody,
  RestoreScormResponse,
  ScormAnalyzeResponse,
  ScormBackupsResponse,
  ScormVerification,
} from '@portal/contracts'
import {
  AppError,
  authenticate,
  badRequest,
  doc,
  forgetGarbage,
  ownBodyLimit,
  parseJsonInput,
  readBodyText,
  receiveMultipart,
  recordGarbage,
  requireAdmin,
  uploadRequestOf,
  validate,
  validationFailed,
  type AppEnv,
  type TokenVerifier,
} from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { checkUploadHeaders, megabytes, uploadTooLarge } from '../uploads/multipart.ts'
import { contentMatches, extensionOf } from '../uploads/sniff.ts'
import type { ScormEditorService } from './scorm-editor.service.ts'

const ModuleIdParam = z.object({ moduleId: AnalyzeScormBody.shape.moduleId })

const tags = ['SCORM editor']

const VIDEO_TYPES = ['mp4', 'webm'] as const

/**
 * `/scorm-editor` (admins): analysis, timing and name edits with backups, restore and
 * verification of stored Captivate modules (decision 0033).
 */
export const scormEditorAdminRoutes = (svc: ScormEditorService, ctx: LearningContext, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .post(
      '/analyze',
      doc({ summary: "Analyses a Captivate module's slides and timing", tags, responses: { 200: ScormAnalyzeResponse, 404: null, 422: null } }),
      validate('json', AnalyzeScormBody),
      async (c) => c.json(await svc.analyze(c.get('actor'), c.req.valid('json').moduleId)),
    )
    .get(
      '/backups/:moduleId',
      doc({ summary: "A module's backups from earlier edits", tags, responses: { 200: ScormBackupsResponse, 404: null } }),
      validate('param', ModuleIdParam),
      async (c) => c.json(await svc.backups(c.get('actor'), c.req.valid('param').moduleId)),
    )
    .post(
      '/restore',
      doc({ summary: 'Restores a module from a backup', tags, responses: { 200: RestoreScormResponse, 404: null } }),
      validate('json', RestoreScormBody),
      async (c) => c.json(await svc.restore(c.get('actor'), c.req.valid('json'))),
    )
    .get(
      '/verify/:moduleId',
      doc({ summary: "Verifies a stored module's files", tags, responses: { 200: ScormVerification, 404: null } }),
      validate('param', ModuleIdParam),
      async (c) => c.json(await svc.verify(c.get('actor'), c.req.valid('param').moduleId)),
    )
    // edit-timing reads its own body (a replacement video may be large).
    .post(
      '/edit-timing',
      doc({
        summary: "Edits a module's slide timing and names (optionally with a replacement video)",
        tags,
        body: { media: 'application/json', schema: EditTimingFields, description: 'Or multipart/form-data: the same fields and a `videoFile` (MP4 or WebM)' },
        responses: { 200: EditTimingResponse, 404: null, 413: null, 415: null, 422: null },
      }),
      ownBodyLimit,
      async (c) => {
        const actor = c.get('actor')
        const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
        const fieldsOf = (raw: unknown) => {
          const parsed = EditTimingFields.safeParse(raw)
          if (!parsed.success) throw validationFailed(parsed.error)
          return parsed.data
        }
        if (type === 'application/json') return c.json(await svc.editTiming(actor, fieldsOf(parseJsonInput(await readBodyText(c, 1024 * 1024))), null))
        // multipart: the fields and, optionally, `videoFile`, streamed into a garbage-recorded prefix.
        const req = uploadRequestOf(c)
        const limits = ctx.uploadLimits
        checkUploadHeaders(req, limits)
        const prefix = `uploads/${randomUUID()}`
        const em = ctx.orm.em.fork()
        await em.fork().transactional((tx) => recordGarbage(tx, [{ key: prefix, isPrefix: true }], ctx.now()))
        try {
          const received = await receiveMultipart(req, {
            storage: ctx.storage,
            limits: { ...limits, maxFiles: 1 },
            fileFields: ['videoFile'],
            accept({ name }) {
              const ext = extensionOf(name)
              if (!(VIDEO_TYPES as readonly string[]).includes(ext)) throw new AppError(415, 'unsupported_file_type', `File type not supported: ${name}`)
              return {
                key: `${prefix}/video.${ext}`,
                check(head) {
                  if (!contentMatches(ext as (typeof VIDEO_TYPES)[number], head)) throw new AppError(415, 'file_content_mismatch', `${name} is not a valid ${ext} file`)
                  return ext
                },
              }
            },
            tooLarge: {
              file: (name) => new AppError(413, 'file_too_large', `${name} is larger than ${megabytes(limits.maxFileBytes)} MB`),
              request: () => uploadTooLarge(limits),
              files: () => badRequest('Send at most one videoFile', 'too_many_files'),
            },
          })
          const raw = Object.fromEntries([...received.fields].map(([k, v]) => [k, v[0]]))
          const video = received.files[0] ? { key: received.files[0].key } : null
          return c.json(await svc.editTiming(actor, fieldsOf(raw), video))
        } finally {
          await ctx.storage.deletePrefix(prefix).catch(() => undefined)
          await em
            .fork()
            .transactional((tx) => forgetGarbage(tx, prefix))
            .catch(() => undefined)
        }
      },
    )
