import {
  applyMergePatch,
  CONTENT_PLAYER_PATH,
  COURSE_MESSAGES,
  DEFAULT_SCORM_PROGRESS,
  launchableItems,
  PROGRESS_TRACKER,
  ScormCommit,
  type ScoState,
  type ScormItem,
  type ScormLaunch,
  type ScormProgress,
  ScormProgressBody,
} from '@portal/contracts'
import { AppError, badRequest, parseJsonInput, type Actor } from '@portal/server-kit'
import type { z } from 'zod'
import type { LearningContext } from '../../context.ts'
import { ttlCache } from '../../ttl-cache.ts'
import { contentBase } from '../content/content.service.ts'
import type { LaunchClaims } from '../../shared/index.ts'
import { iso, manifestOf, requireModule, type ModuleRow } from '../access.ts'
import { courseRepository } from '../course.repository.ts'
import { progressRepository } from '../progress/progress.repository.ts'
import { completeModule, markLaunched } from '../progress/progress.service.ts'
import { openRetakes } from '../../assignments/index.ts'
import { scormRepository, type CommitRow, type StateRow } from './scorm.repository.ts'
import { contentCompletion } from './content-completion.ts'
import { sequencedOrganization, storedSequencingState, storeSequencingState } from './sequencing-state.ts'
import { applyCompletionThreshold, applyProgressRecord, durationToTimespan, progressRecordProblem, sharedStores, summarize, suspendDataProblem, totalTimePath } from './summary.ts'

/** The SCORM launch's refusal of a cmi5 module. */
export const IS_CMI5_MESSAGE = 'This module is a cmi5 course: open it with the cmi5 launch'

/** Path of a launch's commit endpoint (the content player posts to it on the content origin). */
export const commitUrl = (token: string) => `/api/scorm/commit/${token}`

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v)

const withBase = (items: ScormItem[], base: string): ScormItem[] =>
  items.map((i) => ({ ...i, href: i.href === null ? null : `${base}${i.href}`, children: withBase(i.children, base) }))

/** A package that could not be processed: admins read why (they can fix it), learners a plain message. */
const packageFailed = (actor: Actor, module: Pick<ModuleRow, 'processing_error'>) =>
  new AppError(422, 'package_failed', (actor.isAdmin && module.processing_error) || COURSE_MESSAGES.processingFailed)

/** A commit the endpoint answers with `{result: false}`. */
export class CommitError extends Error {
  readonly status: 400 | 403 | 404 | 409 | 415
  readonly code: string
  constructor(status: 400 | 403 | 404 | 409 | 415, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

/**
 * The stored state as the progress record shows it (times in its 0000:00:00 format, 2004's
 * durations too): the small summary columns, and the suspend data and interactions read from the
 * cmi tree (not kept twice: commits stay cheap to store).
 */
const toProgress = (r: StateRow): ScormProgress => {
  const tree = summarize(json(r.cmi))
  return {
    lessonStatus: r.lesson_status,
    score: r.score,
    location: r.location,
    suspendData: tree.suspendData,
    totalTime: durationToTimespan(r.total_time),
    sessionTime: durationToTimespan(r.session_time),
    interactions: tree.interactions,
  }
}

export function createScormService(ctx: LearningContext) {
  const { orm, now, launchTokens } = ctx
  // Learner+module pairs whose progress row was touched (started, ≥ 5) recently: later commits
  // of the session skip that part. `completed` remembers launches whose module is already complete:
  // by launch, since a recurring assignment's new cycle starts the course over (decision 0051) on
  // any instance, and a launch after that must reach the completion again.
  const touched = new Map<string, number>()
  const completed = new Set<string>()
  const markCompleted = (key: string) => {
    // A memo, not the record: starting over only costs a lookup.
    if (completed.size >= 100_000) completed.clear()
    completed.add(key)
  }
  const TOUCH_EVERY_MS = 60_000
  // The SCOs (launchable items) of each package, to check a commit's item without a query each
  // time; null: not a ready SCORM package (a file module's launch cannot commit); undefined: gone.
  const scosOf = ttlCache({ ttlMs: 60_000, max: 5000 }, async (id: number): Promise<Map<string, ScormItem> | null | undefined> => {
    const row = await scormRepository.packageOf(orm.em.fork(), id)
    if (!row) return undefined
    const manifest = row.is_scorm && row.processing_status === 'ready' ? manifestOf(row as ModuleRow) : null
    return manifest ? new Map(launchableItems(manifest.items).map((i) => [i.identifier, i])) : null
  })

  // The hottest statement of the service (every open SCO commits every 5 s): prepared once per connection.
  const commitStatement = scormRepository.prepareCommit(orm)

  /** The state row the progress record is about: the most recently updated SCO of the module. */
  const latestState = (userId: string, moduleId: number): Promise<StateRow | undefined> => scormRepository.latestState(orm.em.fork(), userId, moduleId)

  /**
   * Completes the module for a completion the content reported (no engagement rule). A package
   * of several SCOs completes once every visible SCO has reported completion; until then its
   * progress shows the share of SCOs done. `wholeModule`: the status is the module's own (the
   * spec's progress record), not one SCO's. Resolves with whether this call completed it
   * (`newly`) and whether the module is complete now (`complete`, newly or before).
   */
  async function contentCompleted(
    userId: string,
    moduleId: number,
    trigger: string,
    wholeModule = false,
    result?: { score: number | null; passed: boolean | null },
  ): Promise<{ newly: boolean; complete: boolean }> {
    const em = orm.em.fork()
    const module = await scormRepository.moduleToComplete(em, moduleId)
    if (!module) return { newly: false, complete: false }
    const course = await courseRepository.findCourseRow(em, module.course_id)
    if (!course) return { newly: false, complete: false }
    if (!wholeModule) {
      const content = await contentCompletion(em, userId, module)
      if (!content.done) {
        const floor = content.required ? Math.floor((PROGRESS_TRACKER.maxBeforeComplete * content.reported) / content.required) : 0
        await progressRepository.touch(em, { userId, moduleId, courseId: module.course_id, floor, at: now() })
        return { newly: false, complete: false }
      }
    }
    const out = await em.transactional((tx) => completeModule(tx, { userId, module, course, trigger, at: now(), timeZone: ctx.timeZone, checkEngagement: false, result }))
    return { newly: out.newly_completed, complete: true }
  }

  /**
   * The cmi tree a commit stores: its runtime data, or for a patch (`base`: a final commit too large
   * for a beacon) the state this launch stored with that commit or after it, patched. Another
   * launch's state (or none) cannot be patched: newer work from elsewhere, refused as stale.
   */
  async function wholeTree(claims: LaunchClaims, commit: ScormCommit): Promise<Record<string, unknown>> {
    if (commit.base === undefined) return commit.runtimeData
    const stored = await scormRepository.stateOf(orm.em.fork(), claims.userId, claims.moduleId, commit.itemId)
    if (!stored || Number(stored.launch_at) !== claims.issuedAt || Number(stored.seq) < commit.base) throw new CommitError(409, 'stale_commit', COURSE_MESSAGES.staleCommit)
    return applyMergePatch(json(stored.cmi), commit.runtimeData) as Record<string, unknown>
  }

  return {
    /**
     * GET /scorm/{moduleId}/launch: the content player's URL, a launch token, the package's items
     * under the launch's content root, the stored state per SCO and the shared data. Marks the
     * module started.
     */
    async launch(actor: Actor, moduleId: number): Promise<ScormLaunch | { status: 'processing'; message: string }> {
      const em = orm.em.fork()
      const { module } = await requireModule(em, actor, moduleId)
      if (!module.is_scorm) throw badRequest(COURSE_MESSAGES.notScorm, 'not_scorm')
      // A cmi5 package is a package too (issue 26), launched per AU through POST /cmi5/{moduleId}/launch.
      if (module.scorm_version === 'cmi5') throw badRequest(IS_CMI5_MESSAGE, 'is_cmi5')
      // A recurring assignment's next cycle that opened before the scan came by: the course starts over first (decision 0051).
      await openRetakes(em, { userId: actor.userId, kind: 'course', itemId: module.course_id }, { today: ctx.today(), at: now() })
      if (module.processing_status === 'processing') return { status: 'processing', message: COURSE_MESSAGES.processing }
      const manifest = manifestOf(module)
      if (module.processing_status === 'failed' || !manifest || !module.content_prefix || !module.scorm_version) throw packageFailed(actor, module)
      const organization = sequencedOrganization(module.scorm_version, manifest)
      const [{ token, claims }, states, shared, sequencingState, revision] = await Promise.all([
        launchTokens.issue({ userId: actor.userId, moduleId, courseId: module.course_id, admin: actor.isAdmin }),
        scormRepository.states(em, actor.userId, moduleId),
        scormRepository.sharedData(em, actor.userId, moduleId),
        organization ? storedSequencingState(em, actor.userId, moduleId) : null,
        scormRepository.revision(em, actor.userId, moduleId),
      ])
      // Marked started, and announced (statements out, issue 26), in one transaction.
      const at = now()
      await em.transactional(async (tx) => {
        await markLaunched(tx, { userId: actor.userId, module, kind: 'scorm', at })
      })
      const base = contentBase(token)
      const items = withBase(manifest.items, base)
      const launchable = launchableItems(items)
      if (!launchable.length) throw new AppError(422, 'package_failed', COURSE_MESSAGES.processingFailed)
      const byId = new Map(launchable.map((i) => [i.identifier, i]))
      const start = states.map((s) => byId.get(s.item_id)).find((i) => i !== undefined) ?? launchable[0]!
      const state: Record<string, ScoState> = {}
      for (const s of states) {
        // SCORM 2004 RTE 4.2.9: only a suspended attempt carries over; after any other exit the SCO
        // starts a new attempt from nothing (ab-initio). The ended one stays stored until the new
        // attempt's first commit moves it to scorm_attempts (and the progress record shows it).
        // A record saved through POST /scorm/progress (launch 0) is resumed as it is.
        if (module.scorm_version === '2004' && s.exit !== 'suspend' && Number(s.launch_at) !== 0) continue
        state[s.item_id] = { cmi: json(s.cmi) as Record<string, unknown>, entry: s.exit === 'suspend' ? 'resume' : '', updated_at: iso(s.updated_at)! }
      }
      return {
        playerUrl: `${ctx.contentOrigin}${CONTENT_PLAYER_PATH}`,
        url: start.href!,
        moduleId,
        courseId: module.course_id,
        version: module.scorm_version,
        edition: module.scorm_edition,
        launchToken: token,
        contentBase: base,
        commitUrl: commitUrl(token),
        expiresAt: claims.expiresAt.toISOString(),
        title: manifest.title,
        items,
        startItem: start.identifier,
        state,
        sharedData: Object.fromEntries(shared.map((s) => [s.store_id, s.store])),
        learner: { id: actor.userId, name: actor.name },
        ...(organization ? { sequencing: { organization, state: sequencingState } } : {}),
        revision: Number(revision?.revision ?? 0),
      }
    },

    /**
     * POST /scorm/commit/{token}: stores one SCO's cmi tree unless a newer one is stored, keeps the
     * summary columns, the shared data stores and the module's progress, and completes the module
     * when the content reports completion.
     */
    async commit(claims: LaunchClaims, body: string): Promise<{ applied: boolean; moduleCompleted: boolean }> {
      // Malformed JSON, text the database cannot store, nesting too deep: 400 before any write.
      const result = ScormCommit.safeParse(parseJsonInput(body))
      if (!result.success) {
        const issue = result.error.issues[0]!
        throw new CommitError(400, 'validation_failed', `${issue.path.join('.') || 'commit'}: ${issue.message}`)
      }
      const commit = result.data
      const scos = await scosOf(claims.moduleId)
      if (scos === undefined) throw new CommitError(404, 'module_not_found', COURSE_MESSAGES.moduleNotFound)
      if (scos === null) throw new CommitError(400, 'not_scorm', COURSE_MESSAGES.notScorm)
      if (!scos.has(commit.itemId)) throw new CommitError(400, 'unknown_item', 'itemId is not a SCO of this package')
      const runtimeData = applyCompletionThreshold(await wholeTree(claims, commit), scos.get(commit.itemId)!)
      const summary = summarize(runtimeData, commit)
      const tooLong = suspendDataProblem(summary.suspendData, 'runtimeData: cmi.suspend_data')
      if (tooLong) throw new CommitError(400, 'validation_failed', tooLong)
      const key = `${claims.userId}:${claims.moduleId}`
      const launchKey = `${key}:${claims.launchId}`
      const at = now()
      const last = touched.get(key)
      const touch = last === undefined || at.getTime() - last >= TOUCH_EVERY_MS
      let row: CommitRow | undefined
      try {
        row = await commitStatement({
          userId: claims.userId,
          moduleId: claims.moduleId,
          itemId: commit.itemId,
          launchAt: claims.issuedAt,
          seq: commit.seq,
          cmi: runtimeData,
          lessonStatus: summary.lessonStatus.slice(0, 100),
          score: summary.score,
          location: summary.location.slice(0, 4000),
          totalTime: summary.totalTime,
          zeroTime: summary.model === '1.2' ? '0000:00:00' : 'PT0S',
          sessionTime: summary.sessionTime.slice(0, 100),
          exit: summary.exit.slice(0, 100),
          at,
          totalTimePath: summary.model === '2004' && summary.totalTime === null ? totalTimePath(runtimeData) : null,
          courseId: claims.courseId,
          touch,
          admin: claims.admin,
          revision: commit.revision ?? null,
          launchId: claims.launchId,
          is2004: summary.model === '2004',
          terminated: commit.terminated,
        })
      } catch (err) {
        // The module (or its course) was deleted after the launch.
        if ((err as { code?: string }).code === '23503') throw new CommitError(404, 'module_not_found', COURSE_MESSAGES.moduleNotFound)
        throw err
      }
      if (row && !row.allowed) {
        // Unassigned since the launch, or the course is gone with the module.
        if (!(await scormRepository.moduleExists(orm.em.fork(), claims.moduleId))) throw new CommitError(404, 'module_not_found', COURSE_MESSAGES.moduleNotFound)
        throw new CommitError(403, 'course_not_assigned', COURSE_MESSAGES.courseNotAssigned)
      }
      // Another launch (another tab) stored newer work: this one must not overwrite it, nor be told it saved.
      if (row && !row.fresh) throw new CommitError(409, 'stale_commit', COURSE_MESSAGES.staleCommit)
      if (touch) {
        if (touched.size > 100_000) touched.clear()
        touched.set(key, at.getTime())
        if (row?.completed_at) markCompleted(launchKey)
      }
      const applied = (row?.applied ?? 0) > 0
      if (applied) {
        const stores = sharedStores(commit)
        if (stores.length) await scormRepository.storeSharedData(orm.em.fork(), claims.userId, claims.moduleId, stores, at)
      }
      const rootDone = commit.sequencing ? await storeSequencingState(orm.em.fork(), claims, commit, at) : false
      let moduleCompleted = false
      const complete = async (trigger: string, wholeModule: boolean) => {
        // The committed SCO's score and pass/fail go with the completion (statements out, issue 26).
        const passed = summary.lessonStatus === 'passed' ? true : summary.lessonStatus === 'failed' ? false : null
        const out = await contentCompleted(claims.userId, claims.moduleId, trigger, wholeModule, { score: summary.score, passed })
        if (out.complete) markCompleted(launchKey)
        return out.newly
      }
      if (applied && summary.complete && !completed.has(launchKey)) moduleCompleted = await complete('scorm-commit', false)
      if (rootDone && !moduleCompleted && !completed.has(launchKey)) moduleCompleted = await complete('scorm-rollup', true)
      return { applied, moduleCompleted }
    },

    /** GET /scorm/progress/{moduleId}: the caller's summary of the module's most recent SCO, defaults when none. */
    async progress(actor: Actor, moduleId: number): Promise<ScormProgress> {
      const { module } = await requireModule(orm.em.fork(), actor, moduleId)
      if (!module.is_scorm) throw badRequest(COURSE_MESSAGES.notScorm, 'not_scorm')
      const row = await latestState(actor.userId, moduleId)
      return row ? toProgress(row) : { ...DEFAULT_SCORM_PROGRESS, interactions: [] }
    },

    /**
     * POST /scorm/progress: writes the record into the caller's cmi tree of the module's most
     * recent (else first) SCO, in that SCO's data model, so the runtime resumes with it too; the
     * status never goes back from completed/passed; completed/passed completes the module. The
     * state is then the record's (launch 0, seq 0): a session still under way goes on committing
     * over it, and the next launch resumes it whatever the exit (2004 attempts: see `launch`).
     */
    async saveProgress(actor: Actor, body: z.output<typeof ScormProgressBody>) {
      const em = orm.em.fork()
      const { module } = await requireModule(em, actor, body.moduleId)
      if (module.course_id !== body.courseId) throw badRequest('This module does not belong to that course', 'module_course_mismatch')
      if (!module.is_scorm) throw badRequest(COURSE_MESSAGES.notScorm, 'not_scorm')
      await openRetakes(em, { userId: actor.userId, kind: 'course', itemId: module.course_id }, { today: ctx.today(), at: now() })
      const model = module.scorm_version === '2004' ? '2004' : '1.2'
      const problem = progressRecordProblem(model, body.scormData)
      if (problem) throw badRequest(problem, 'validation_failed')
      const latest = await latestState(actor.userId, module.id)
      const manifest = manifestOf(module)
      const first = manifest ? launchableItems(manifest.items)[0] : undefined
      const itemId = latest?.item_id ?? first?.identifier
      if (!itemId) throw packageFailed(actor, module)
      const at = now()
      const status = await em.transactional(async (tx) => {
        const stored = await scormRepository.lockTree(tx, actor.userId, module.id, itemId)
        const cmi = applyProgressRecord(stored ?? {}, model, body.scormData)
        const summary = summarize(cmi)
        const defaultTime = model === '1.2' ? '0000:00:00' : 'PT0S'
        // A first state starts at (0, 0): any commit of a launch under way is newer.
        await scormRepository.storeRecordTree(tx, {
          userId: actor.userId,
          moduleId: module.id,
          itemId,
          cmi,
          lessonStatus: summary.lessonStatus.slice(0, 100),
          score: summary.score,
          location: summary.location,
          totalTime: summary.totalTime ?? defaultTime,
          sessionTime: summary.sessionTime,
          exit: summary.exit,
          at,
        })
        return summary
      })
      await progressRepository.touch(em, { userId: actor.userId, moduleId: module.id, courseId: module.course_id, floor: PROGRESS_TRACKER.scormInitialized, at })
      if (status.complete) await contentCompleted(actor.userId, module.id, 'scorm-status', true)
      return { message: 'Progress saved' }
    },

    /** GET /scorm-editor/edit/{moduleId}. */
    async editState(actor: Actor, moduleId: number) {
      const { module } = await requireModule(orm.em.fork(), actor, moduleId)
      return { hasEdits: module.has_edits }
    },
  }
}
export type ScormService = ReturnType<typeof createScormService>
