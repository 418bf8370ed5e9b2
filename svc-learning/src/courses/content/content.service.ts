import mime from 'mime'
import type { ModuleLaunch } from '@portal/contracts'
import { badRequest, downloadName, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import type { LaunchClaims } from '../../shared/index.ts'
import { courseNotAssigned, requireModule, type ModuleRow } from '../access.ts'
import { courseRepository } from '../course.repository.ts'
import { markLaunched } from '../progress/progress.service.ts'
import { ttlCache } from '../../ttl-cache.ts'
import { isSafeKey, type ObjectInfo } from '@portal/server-kit'
import { createEditedFiles } from '../scorm-editor/package-files.ts'

/**
 * Path of a launch's content root. The gateway serves it only on the content origin (never the
 * portal's: decision "content-origin"), with the content's security policy (its own, not this
 * service's: the gateway knows the origins).
 */
export const contentBase = (token: string) => `/api/content/${token}/`

/**
 * The storage key a content path names, or null when the path is unsafe: `rest` is the part of
 * the URL path after `/content/{token}/` (still %-encoded, without the query string).
 */
export function contentKey(prefix: string, rest: string): string | null {
  let path: string
  try {
    // Package files are stored under NFC names (ingest): a decomposed name in a page's link finds them too.
    path = decodeURIComponent(rest).normalize('NFC')
  } catch {
    return null
  }
  if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return null
  if (!isSafeKey(path)) return null
  const key = `${prefix}/${path}`
  return isSafeKey(key) ? key : null
}

/** Content-Type of a file name; text types say utf-8. */
export function contentTypeOf(name: string, fallback = 'application/octet-stream'): string {
  const type = mime.getType(name) ?? fallback
  return /^text\/|javascript|json|xml|svg/.test(type) && !type.includes('charset') ? `${type}; charset=utf-8` : type
}

/** Types a browser shows itself (PDF viewer, media elements); any other module file is a download. */
const SHOWN_INLINE = /^(application\/pdf|video\/|audio\/)/

type Located = { key: string; type: string; info: ObjectInfo; download: string | null }

type CachedModule = Pick<ModuleRow, 'id' | 'is_scorm' | 'content_prefix' | 'storage_key' | 'content_type' | 'original_name' | 'processing_status'>

export function createContentService(ctx: LearningContext) {
  const { orm, now, storage, launchTokens } = ctx
  // Content requests come in bursts (a page and its scripts, images, media): the module's storage
  // location is kept for a few seconds instead of being read for every file.
  const TTL_MS = 10_000
  const moduleOf = ttlCache({ ttlMs: TTL_MS, max: 5000 }, async (id: number): Promise<CachedModule | null> => {
    return (await courseRepository.findModuleRow(orm.em.fork(), id)) ?? null
  })
  // Whether a launch's learner may still open its course, for as long (a burst of files asks once).
  const assigned = ttlCache({ ttlMs: TTL_MS, max: 20_000, now: () => now().getTime() }, async (_key: string, claims: LaunchClaims) => {
    return courseRepository.isStillAssigned(orm.em.fork(), claims.userId, claims.courseId)
  })
  const stillAssigned = async (claims: LaunchClaims) => claims.admin || assigned(`${claims.userId}:${claims.courseId}`, claims)
  // Files the SCORM timing editor replaced, as of the launch (every file of a launch from one revision).
  const edited = createEditedFiles(ctx)

  return {
    /** GET /modules/{id}/launch: a signed URL of a non-SCORM module's file on the content origin; marks the module started. */
    async launchFile(actor: Actor, moduleId: number): Promise<ModuleLaunch> {
      const em = orm.em.fork()
      const { module } = await requireModule(em, actor, moduleId)
      if (module.is_scorm) throw badRequest('This module is a SCORM package: open it with the SCORM launch', 'is_scorm')
      const { token, claims } = await launchTokens.issue({ userId: actor.userId, moduleId, courseId: module.course_id, admin: actor.isAdmin })
      // Marked started, and announced (statements out, issue 26), in one transaction.
      const at = now()
      await em.transactional(async (tx) => {
        await markLaunched(tx, { userId: actor.userId, module, kind: 'file', at })
      })
      return {
        // The file's name ends the URL (what a browser saves an inline PDF or video as): made safe like a download's.
        url: `${ctx.contentOrigin}${contentBase(token)}${encodeURIComponent(downloadName(module.original_name, module.content_type, 'module'))}`,
        moduleId,
        content_type: module.content_type,
        expiresAt: claims.expiresAt.toISOString(),
      }
    },

    /**
     * The stored object a content URL of launch `claims` names: a file of the extracted package
     * for SCORM modules, the module's single file otherwise. Null when there is none; 403 when
     * the course is no longer assigned to the launch's learner.
     */
    async locate(claims: LaunchClaims, rest: string): Promise<Located | null> {
      const module = await moduleOf(claims.moduleId)
      if (!module) return null
      if (!(await stillAssigned(claims))) throw courseNotAssigned()
      let key: string | null
      let type: string
      let download: string | null = null
      if (module.is_scorm) {
        if (module.processing_status !== 'ready' || !module.content_prefix) return null
        key = contentKey(module.content_prefix, rest)
        if (!key) return null
        key = (await edited.keyOf(module.id, key.slice(module.content_prefix.length + 1), claims.issuedAt)) ?? key
        type = contentTypeOf(key)
      } else {
        if (!rest) return null
        key = module.storage_key
        type = module.content_type || contentTypeOf(module.original_name)
        if (!SHOWN_INLINE.test(type)) download = module.original_name
      }
      const info = await storage.stat(key)
      return info ? { key, type, info, download } : null
    },
  }
}
export type ContentService = ReturnType<typeof createContentService>
