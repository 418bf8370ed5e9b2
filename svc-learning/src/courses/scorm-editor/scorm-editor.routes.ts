import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { z } from 'zod'
import { AnalyzeScormBody, EditTimingFields, RestoreScormBody } from '@portal/contracts'
import {
  AppError,
  authenticate,
  badRequest,
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

const VIDEO_TYPES = ['mp4', 'webm'] as const

/**
 * `/scorm-editor` (admins): analysis, timing and name edits with backups, restore and
 * verification of stored Captivate modules (decision 0033).
 */
export const scormEditorAdminRoutes = (svc: ScormEditorService, ctx: LearningContext, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .post('/analyze', validate('json', AnalyzeScormBody), async (c) => c.json(await svc.analyze(c.get('actor'), c.req.valid('json').moduleId)))
    .get('/backups/:moduleId', validate('param', ModuleIdParam), async (c) => c.json(await svc.backups(c.get('actor'), c.req.valid('param').moduleId)))
    .post('/restore', validate('json', RestoreScormBody), async (c) => c.json(await svc.restore(c.get('actor'), c.req.valid('json'))))
    .get('/verify/:moduleId', validate('param', ModuleIdParam), async (c) => c.json(await svc.verify(c.get('actor'), c.req.valid('param').moduleId)))
    // edit-timing reads its own body (a replacement video may be large).
    .post('/edit-timing', ownBodyLimit, async (c) => {
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
    })
