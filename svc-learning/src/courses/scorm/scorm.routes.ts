import { Hono } from 'hono'
import { z } from 'zod'
import { MessageResponse, numericId, ScormCommit, ScormCommitResponse, ScormEditState, ScormLaunch, ScormProcessing, ScormProgress, ScormProgressBody } from '@portal/contracts'
import { createMiddleware } from 'hono/factory'
import {
  AppError,
  authenticate,
  doc,
  isUnstorableText,
  ownBodyLimit,
  readBodyText,
  scormCommitMetrics,
  UNSTORABLE_TEXT_MESSAGE,
  validate,
  type AppEnv,
  type Metrics,
  type TokenVerifier,
} from '@portal/server-kit'
import type { LaunchTokens } from '../../shared/index.ts'
import { CommitError, type ScormService } from './scorm.service.ts'

const ModuleIdParam = z.object({ moduleId: numericId('module') })
const tags = ['SCORM']
const roles = 'a learner the course is assigned to (their own attempt)'

/** Largest commit accepted (a whole cmi tree: 64,000 characters of suspend data and many interactions fit). */
export const COMMIT_MAX_BYTES = 1024 * 1024

/** The SCORM error code scorm-again reports for a failed commit ("general exception"). */
const GENERAL_EXCEPTION = 101

/**
 * Times each commit into `scorm_commit_duration_seconds` by result: ok, rejected (a 4xx: bad token,
 * body or state) or error (a 5xx).
 */
const timedCommits = (metrics: Metrics | undefined) => {
  const commits = metrics && scormCommitMetrics(metrics.registry)
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!commits) return next()
    const end = commits.startTimer()
    await next()
    end({ result: c.res.status < 400 ? 'ok' : c.res.status < 500 ? 'rejected' : 'error' })
  })
}

/**
 * `/scorm`: launches, progress records (bearer) and the commit endpoint, whose only credential
 * is the launch token in its path (the last commit is a beacon that cannot carry a bearer).
 * `metrics`: where commits are counted and timed.
 */
export const scormRoutes = (svc: ScormService, verifier: TokenVerifier, launchTokens: LaunchTokens, metrics?: Metrics) => {
  const auth = authenticate(verifier)
  return (
    new Hono<AppEnv>()
      // The commit reads its body itself (`ownBodyLimit`, `readBodyText`): it is the service's hottest path.
      .post(
        '/commit/:token',
        doc({
          summary: "Commits the SCO's runtime state (scorm-again's commit, or the last one as a beacon)",
          description:
            'Served on the content origin only. The body is JSON, sent as `application/json` or `text/plain` (a beacon); an error answers `result: false` with the error shape.',
          tags,
          roles: 'the launch holding the signed launch token in its path (no bearer: a beacon cannot carry one)',
          body: { media: 'application/json', schema: ScormCommit, description: 'Or the same JSON as `text/plain`' },
          responses: { 200: ScormCommitResponse, 400: null, 401: { description: 'The launch token is invalid or expired' }, 403: null, 404: null, 409: null, 413: null, 415: null },
        }),
        ownBodyLimit,
        timedCommits(metrics),
        async (c) => {
          const fail = (status: 400 | 401 | 403 | 404 | 409 | 413 | 415, code: string, message: string) =>
            c.json({ result: false, errorCode: GENERAL_EXCEPTION, message, code }, status)
          let claims
          try {
            claims = await launchTokens.verify(c.req.param('token'))
          } catch (err) {
            if (err instanceof AppError) return fail(401, err.code, err.message)
            throw err
          }
          const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
          if (type !== '' && type !== 'application/json' && type !== 'text/plain') return fail(415, 'unsupported_media_type', 'Send the commit as JSON or text/plain')
          try {
            const out = await svc.commit(claims, await readBodyText(c, COMMIT_MAX_BYTES))
            return c.json({ result: true, errorCode: 0, applied: out.applied, moduleCompleted: out.moduleCompleted })
          } catch (err) {
            if (err instanceof CommitError) return fail(err.status, err.code, err.message)
            if (err instanceof AppError && (err.status === 400 || err.status === 413)) return fail(err.status, err.code, err.message)
            if (isUnstorableText(err)) return fail(400, 'invalid_text', UNSTORABLE_TEXT_MESSAGE)
            throw err
          }
        },
      )
      .get(
        '/progress/:moduleId',
        doc({ summary: "The caller's SCORM runtime state of a module", tags, roles, responses: { 200: ScormProgress, 404: null } }),
        auth,
        validate('param', ModuleIdParam),
        async (c) => c.json(await svc.progress(c.get('actor'), c.req.valid('param').moduleId)),
      )
      .post(
        '/progress',
        doc({ summary: "Saves the caller's SCORM progress (the viewer's fallback to commits)", tags, roles, responses: { 200: MessageResponse, 404: null } }),
        auth,
        validate('json', ScormProgressBody),
        async (c) => c.json(await svc.saveProgress(c.get('actor'), c.req.valid('json'))),
      )
      .get(
        '/:moduleId/launch',
        doc({ summary: 'Launches a SCORM module: its runtime state and content URL', tags, roles, responses: { 200: ScormLaunch, 202: ScormProcessing, 404: null } }),
        auth,
        validate('param', ModuleIdParam),
        async (c) => {
          const out = await svc.launch(c.get('actor'), c.req.valid('param').moduleId)
          return 'status' in out ? c.json(out, 202) : c.json(out)
        },
      )
  )
}

/** `/scorm-editor`: whether a package has edits (the learner viewer picks its start delay from it). */
export const scormEditorRoutes = (svc: ScormService, verifier: TokenVerifier) =>
  new Hono<AppEnv>().use(authenticate(verifier)).get(
    '/edit/:moduleId',
    doc({
      summary: 'Whether a package has timing edits (the viewer picks its start delay from it)',
      tags,
      roles: 'any signed-in user who may see the module',
      responses: { 200: ScormEditState, 404: null },
    }),
    validate('param', ModuleIdParam),
    async (c) => c.json(await svc.editState(c.get('actor'), c.req.valid('param').moduleId)),
  )
