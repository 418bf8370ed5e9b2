import { createHash, randomBytes } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import {
  CONTENT_PLAYER_PATH,
  COURSE_MESSAGES,
  cmi5Aus,
  PROGRESS_TRACKER,
  type Cmi5Au,
  type Cmi5AuStatus,
  type Cmi5Course,
  type Cmi5Launch,
  type Cmi5LaunchBody,
  type Cmi5Status,
  type Cmi5WaiveBody,
} from '@portal/contracts'
import { AppError, auditTrail, badRequest, conflict, forbidden, notFound, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { openRetakes } from '../assignments/index.ts'
import {
  completeModule,
  contentBase,
  markLaunched,
  courseRepository,
  manifestOf,
  moduleNotFound,
  progressRepository,
  requireModule,
  type CourseRow,
  type ModuleRow,
} from '../courses/index.ts'
import { authTokenHash, insertStatements, learnerAgent, putDocument, xapiHomePage, type Cmi5SessionCredential, type XapiActivity, type XapiStatement } from '../lrs/index.ts'
import { cmi5Repository, type AuStatusRow, type OpenSessionRow, type RegistrationRow } from './cmi5.repository.ts'
import { moveOnMet, satisfiedParts } from './move-on.ts'
import { ACTIVITY_TYPE, CATEGORY, EXT, LAUNCH_DATA_STATE_ID, lmsIds, VERB, VERB_DISPLAY, type LmsIds } from './vocabulary.ts'

/** The messages of the cmi5 runtime's refusals. */
export const CMI5_RUNTIME_MESSAGES = {
  notCmi5: 'This module is not a cmi5 course',
  unknownAu: 'This cmi5 course has no such assignable unit (AU)',
  alreadyWaived: 'This AU is already waived for this learner',
  userNotFound: 'User not found',
  notAssigned: 'This course is not assigned to that learner',
  otherLearner: 'Only admins may read another learner’s cmi5 status',
} as const

/** The fetch URL's answers (cmi5 §8.2.3.2 error codes; error-text is the LMS's). */
export const FETCH_ERRORS = {
  used: { 'error-code': '1', 'error-text': 'The authorization token has already been returned, or the session has ended' },
  unknown: { 'error-code': '2', 'error-text': 'This fetch URL is not valid' },
  failed: { 'error-code': '3', 'error-text': 'The authorization token could not be issued; launch the unit again' },
} as const
export type FetchAnswer = { 'auth-token': string } | (typeof FETCH_ERRORS)[keyof typeof FETCH_ERRORS]

/** SHA-256 of a fetch token as the database keeps it (never the token itself; the auth-token's is the LRS's `authTokenHash`). */
export const tokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest()

/** Sessions the abandon sweep ends per transaction. */
export const ABANDON_BATCH = 100

/** A ready cmi5 module's structure (H1 keeps it in the stored manifest beside the item tree). */
function structureOf(module: ModuleRow): Cmi5Course | null {
  const manifest = manifestOf(module) as { cmi5?: Cmi5Course } | null
  return module.scorm_version === 'cmi5' && manifest?.cmi5 ? manifest.cmi5 : null
}

/** An ISO 8601 duration of `ms` milliseconds (xAPI result.duration). */
const duration = (ms: number) => `PT${Math.max(0, Math.round(ms / 10) / 100)}S`

const activity = (id: string, definition?: XapiActivity['definition']): XapiActivity => ({ objectType: 'Activity', id, ...(definition ? { definition } : {}) })
/** A language map of a title from the course structure (its language is not known: `und`, RFC 5646). */
const named = (title: string, type?: string): XapiActivity['definition'] => ({ name: { und: title }, ...(type ? { type } : {}) })

/**
 * The LMS's statements (cmi5 §9): the learner as actor, the registration, the publisher id in
 * `contextActivities.grouping` (§9.6.2.3), the cmi5 category (§9.6.2.1) and the moveOn category
 * when the result carries success or completion (§9.6.2.2), and the session id (§9.6.3.1).
 */
function lmsStatement(p: {
  actor: XapiStatement['actor']
  verb: string
  object: XapiActivity
  registration: string
  sessionId: string
  publisherId: string
  at: Date
  result?: XapiStatement['result']
  extensions?: Record<string, unknown>
}): XapiStatement {
  const moveOn = p.result?.success !== undefined || p.result?.completion !== undefined
  return {
    id: crypto.randomUUID(),
    actor: p.actor,
    verb: { id: p.verb, display: { 'en-US': VERB_DISPLAY[p.verb] ?? p.verb } },
    object: p.object,
    ...(p.result ? { result: p.result } : {}),
    context: {
      registration: p.registration,
      contextActivities: {
        grouping: [activity(p.publisherId)],
        category: [activity(CATEGORY.cmi5), ...(moveOn ? [activity(CATEGORY.moveOn)] : [])],
      },
      extensions: { [EXT.sessionId]: p.sessionId, ...p.extensions },
    },
    timestamp: p.at.toISOString(),
  }
}

/** The launch URL (cmi5 §8.1): the AU's URL, its own query kept, with the five launch parameters (each URL-encoded). */
export function launchUrl(auUrl: string, params: { endpoint: string; fetch: string; actor: string; registration: string; activityId: string }): string {
  const hash = auUrl.indexOf('#')
  const [path, fragment] = hash === -1 ? [auUrl, ''] : [auUrl.slice(0, hash), auUrl.slice(hash)]
  const query = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
  const sep = !path.includes('?') ? '?' : path.endsWith('?') || path.endsWith('&') ? '' : '&'
  return `${path}${sep}${query}${fragment}`
}

/** Whether a statement is a "cmi5 defined" one (§7.1.3: it carries the cmi5 category) about the session's AU. */
function cmi5Defined(s: XapiStatement, auActivityId: string): boolean {
  const object = s.object as { objectType?: string; id?: string }
  if ((object.objectType ?? 'Activity') !== 'Activity' || object.id !== auActivityId) return false
  return (s.context?.contextActivities?.category ?? []).some((c) => c.id === CATEGORY.cmi5)
}

const toAuStatus = (au: Cmi5Au, row: AuStatusRow | undefined, session: { open: boolean } | undefined): Cmi5AuStatus => {
  const facts = { completed: !!row?.completed_at, passed: !!row?.passed_at, waived: !!row?.waived_at }
  return {
    id: au.id,
    title: au.title,
    moveOn: au.moveOn,
    launchMethod: au.launchMethod,
    completed: facts.completed,
    passed: facts.passed,
    // Failed and not (yet) passed: a later Passed wins (cmi5 §9.3: no Failed after Passed).
    failed: !!row?.failed_at && !facts.passed,
    satisfied: moveOnMet(au.moveOn, facts),
    waived: facts.waived,
    launched: session !== undefined,
    // The viewer closes its "open in another window" view when this turns false (the portal's COOP cuts the AU's window off from it).
    open: session?.open ?? false,
    score: row?.score ?? null,
  }
}

/** The verbs whose statements may change an AU's status (the rest only show what the learner did). */
const JUDGED_VERBS: ReadonlySet<string> = new Set([VERB.completed, VERB.passed, VERB.failed])

/** Whether the runtime judges any of these statements (createLrs `judges`). */
export const judges = (statements: readonly XapiStatement[]): boolean => statements.some((s) => JUDGED_VERBS.has(s.verb.id))

export function createCmi5Service(ctx: LearningContext) {
  const { orm, now, launchTokens } = ctx
  const homePage = () => xapiHomePage(ctx)

  /** The module when it is a ready cmi5 course: 404/403 first (requireModule), then 409 while processed, 422 failed, 400 not cmi5. */
  async function requireCmi5(em: EntityManager, actor: Actor, moduleId: number) {
    const { module, course } = await requireModule(em, actor, moduleId)
    if (module.scorm_version !== 'cmi5') throw badRequest(CMI5_RUNTIME_MESSAGES.notCmi5, 'not_cmi5')
    if (module.processing_status === 'processing') throw conflict(COURSE_MESSAGES.processing, 'processing')
    const structure = structureOf(module)
    if (module.processing_status === 'failed' || !structure)
      throw new AppError(422, 'package_failed', (actor.isAdmin && module.processing_error) || COURSE_MESSAGES.processingFailed)
    return { module, course, structure }
  }

  const auOf = (structure: Cmi5Course, auId: string) => {
    const au = cmi5Aus(structure.children).find((a) => a.id === auId)
    if (!au) throw notFound(CMI5_RUNTIME_MESSAGES.unknownAu, 'au_not_found')
    return au
  }

  /**
   * The learner's registration of the module, made on first use. A new registration judges moveOn
   * at once (cmi5 §9.6.1): NotApplicable AUs are satisfied from the start, and blocks (or the
   * course) made only of them get their Satisfied statements, under a session id of their own.
   */
  async function registration(tx: EntityManager, p: { userId: string; module: ModuleRow; course: CourseRow; structure: Cmi5Course; at: Date }): Promise<RegistrationRow> {
    const { row, created } = await cmi5Repository.registrationFor(tx, { userId: p.userId, moduleId: p.module.id, courseId: p.module.course_id, at: p.at })
    if (created) {
      const notApplicable = cmi5Aus(p.structure.children).filter((au) => au.moveOn === 'NotApplicable')
      for (const au of notApplicable) await cmi5Repository.recordAu(tx, { registration: row.registration, auId: au.id, satisfiedAt: p.at })
      if (notApplicable.length) await judge(tx, { reg: row, module: p.module, course: p.course, structure: p.structure, sessionId: crypto.randomUUID(), at: p.at })
    }
    return row
  }

  /**
   * After an AU's status changed: each block whose AUs are now all satisfied, then the course,
   * gets the LMS's Satisfied statement once per registration (cmi5 §9.3.9, innermost block
   * first); a satisfied course completes the module exactly as a SCORM completion does
   * (`completeModule`, no engagement rule); until then the module's progress shows the share of
   * satisfied AUs (as a SCORM package of several SCOs does). Runs under the registration's lock.
   */
  async function judge(tx: EntityManager, p: { reg: RegistrationRow; module: ModuleRow; course: CourseRow; structure: Cmi5Course; sessionId: string; at: Date }) {
    const rows = new Map((await cmi5Repository.auStatuses(tx, p.reg.registration)).map((r) => [r.au_id, r]))
    const aus = cmi5Aus(p.structure.children)
    const satisfied = new Set(
      aus
        .filter((au) => moveOnMet(au.moveOn, { completed: !!rows.get(au.id)?.completed_at, passed: !!rows.get(au.id)?.passed_at, waived: !!rows.get(au.id)?.waived_at }))
        .map((au) => au.id),
    )
    for (const id of satisfied) if (!rows.get(id)?.satisfied_at) await cmi5Repository.recordAu(tx, { registration: p.reg.registration, auId: id, satisfiedAt: p.at })
    const ids = lmsIds(homePage(), p.module.id)
    const done = satisfiedParts(p.structure, satisfied)
    const issued = await cmi5Repository.satisfiedActivities(tx, p.reg.registration, VERB.satisfied)
    const actor = learnerAgent(ctx, p.reg.user_id)
    const statements: XapiStatement[] = []
    const satisfy = (objectId: string, publisherId: string, title: string, type: string) => {
      if (issued.has(objectId)) return
      statements.push(
        lmsStatement({
          actor,
          verb: VERB.satisfied,
          object: activity(objectId, named(title, type)),
          registration: p.reg.registration,
          sessionId: p.sessionId,
          publisherId,
          at: p.at,
        }),
      )
    }
    for (const block of done.blocks) satisfy(ids.block(block.id), block.id, block.title, ACTIVITY_TYPE.block)
    if (done.course) satisfy(ids.course(), p.structure.id, p.structure.title, ACTIVITY_TYPE.course)
    if (statements.length) await insertStatements(tx, statements, { registration: p.reg.registration, sessionId: p.sessionId, now: p.at })
    if (done.course) {
      await cmi5Repository.markRegistrationSatisfied(tx, p.reg.registration, p.at)
      // A course of one AU reports that AU's result with the completion (statements out); several AUs have none of their own.
      const only = aus.length === 1 ? rows.get(aus[0]!.id) : undefined
      const result = only ? { score: only.score === null ? null : Math.round(only.score * 100), passed: only.passed_at ? true : only.failed_at ? false : null } : undefined
      await completeModule(tx, {
        userId: p.reg.user_id,
        module: p.module,
        course: p.course,
        trigger: 'cmi5-satisfied',
        at: p.at,
        timeZone: ctx.timeZone,
        checkEngagement: false,
        result,
      })
    } else {
      const floor = Math.floor((PROGRESS_TRACKER.maxBeforeComplete * satisfied.size) / Math.max(1, aus.length))
      await progressRepository.touch(tx, { userId: p.reg.user_id, moduleId: p.module.id, courseId: p.module.course_id, floor, at: p.at })
    }
  }

  /** Abandoned statements (cmi5 §9.3.6) for sessions that ended without Terminated; duration from Launched to the AU's last statement (§9.5.4.2). */
  async function abandon(tx: EntityManager, sessions: OpenSessionRow[], at: Date) {
    if (!sessions.length) return
    const statements = sessions.map((s) => ({
      s,
      statement: lmsStatement({
        actor: learnerAgent(ctx, s.user_id),
        verb: VERB.abandoned,
        object: activity(lmsIds(homePage(), s.module_id).au(s.au_id)),
        registration: s.registration,
        sessionId: s.session_id,
        publisherId: s.au_id,
        at,
        result: { duration: duration(new Date(s.last_statement_at ?? s.created_at).getTime() - new Date(s.created_at).getTime()) },
      }),
    }))
    for (const { s, statement } of statements) await insertStatements(tx, [statement], { registration: s.registration, sessionId: s.session_id, now: at })
    await cmi5Repository.markAbandoned(
      tx,
      sessions.map((s) => s.session_id),
      at,
    )
  }

  async function status(em: EntityManager, userId: string, module: ModuleRow, structure: Cmi5Course): Promise<Cmi5Status> {
    const reg = await cmi5Repository.registrationOf(em, userId, module.id)
    const [rows, launched] = reg ? await Promise.all([cmi5Repository.auStatuses(em, reg.registration), cmi5Repository.launchedAus(em, reg.registration, now())]) : [[], []]
    const byId = new Map(rows.map((r) => [r.au_id, r]))
    const sessions = new Map(launched.map((l) => [l.au_id, l]))
    return {
      moduleId: module.id,
      registration: reg?.registration ?? null,
      satisfied: !!reg?.satisfied_at,
      aus: cmi5Aus(structure.children).map((au) => toAuStatus(au, byId.get(au.id), sessions.get(au.id))),
    }
  }

  return {
    /**
     * POST /cmi5/{moduleId}/launch (cmi5 §8–10): the learner's registration (made once), any open
     * session of the AU abandoned, a new session with its one-time fetch URL, the LMS.LaunchData
     * State document, the Launched statement, the module marked started, and the AU's launch URL.
     */
    async launch(actor: Actor, moduleId: number, body: Cmi5LaunchBody): Promise<Cmi5Launch> {
      const em = orm.em.fork()
      const { module, course, structure } = await requireCmi5(em, actor, moduleId)
      const au = auOf(structure, body.au_id)
      // A recurring assignment's next cycle that opened before the scan came by: the course starts over first (decision 0051).
      await openRetakes(em, { userId: actor.userId, kind: 'course', itemId: module.course_id }, { today: ctx.today(), at: now() })
      // Package files of a relative AU url are served under a launch token, as SCORM's are.
      const { token, claims } = await launchTokens.issue({ userId: actor.userId, moduleId, courseId: module.course_id, admin: actor.isAdmin })
      const at = now()
      const ids = lmsIds(homePage(), moduleId)
      const activityId = ids.au(au.id)
      const agent = learnerAgent(ctx, actor.userId)
      const sessionId = crypto.randomUUID()
      const fetchToken = randomBytes(32).toString('base64url')
      const absolute = /^[a-z][a-z0-9+.-]*:/i.test(au.url)
      const auUrl = absolute ? au.url : `${ctx.contentOrigin}${contentBase(token)}${au.url}`
      const reg = await em.transactional(async (tx) => {
        const reg = await registration(tx, { userId: actor.userId, module, course, structure, at })
        await cmi5Repository.lockRegistration(tx, reg.registration)
        // A relaunch ends the AU's earlier session that never sent Terminated (cmi5 §9.3.6).
        await abandon(tx, await cmi5Repository.openSessionsOf(tx, reg.registration, au.id), at)
        await cmi5Repository.insertSession(tx, { sessionId, registration: reg.registration, auId: au.id, fetchTokenHash: tokenHash(fetchToken), at, expiresAt: claims.expiresAt })
        // cmi5 §10: written before the launch; the AU reads its context template, launch mode, moveOn... from it.
        const launchData = {
          contextTemplate: {
            contextActivities: { grouping: [activity(au.id)] },
            extensions: { [EXT.sessionId]: sessionId },
          },
          launchMode: 'Normal',
          ...(au.launchParameters !== null ? { launchParameters: au.launchParameters } : {}),
          ...(au.masteryScore !== null ? { masteryScore: au.masteryScore } : {}),
          moveOn: au.moveOn,
          returnURL: `${ctx.contentOrigin}${CONTENT_PLAYER_PATH}?cmi5-return=${moduleId}`,
          ...(au.entitlementKey !== null ? { entitlementKey: { courseStructure: au.entitlementKey } } : {}),
        }
        await putDocument(tx, {
          kind: 'state',
          activityId,
          agent,
          registration: reg.registration,
          documentId: LAUNCH_DATA_STATE_ID,
          content: Buffer.from(JSON.stringify(launchData)),
          contentType: 'application/json',
          now: at,
        })
        // cmi5 §9.3.1: recorded before the AU is launched, with launchMode, launchURL, moveOn, masteryScore, launchParameters (§9.6.3).
        const launched = lmsStatement({
          actor: agent,
          verb: VERB.launched,
          object: activity(activityId, named(au.title)),
          registration: reg.registration,
          sessionId,
          publisherId: au.id,
          at,
          extensions: {
            [EXT.launchMode]: 'Normal',
            [EXT.launchUrl]: auUrl,
            [EXT.moveOn]: au.moveOn,
            ...(au.masteryScore !== null ? { [EXT.masteryScore]: au.masteryScore } : {}),
            ...(au.launchParameters !== null ? { [EXT.launchParameters]: au.launchParameters } : {}),
          },
        })
        await insertStatements(tx, [launched], { registration: reg.registration, sessionId, now: at })
        await markLaunched(tx, { userId: actor.userId, module, kind: 'cmi5', at })
        return reg
      })
      return {
        url: launchUrl(auUrl, {
          endpoint: `${ctx.contentOrigin}/api/lrs/`,
          fetch: `${ctx.contentOrigin}/api/cmi5/fetch/${fetchToken}`,
          actor: JSON.stringify(agent),
          registration: reg.registration,
          activityId,
        }),
        launchMethod: au.launchMethod,
        moduleId,
        au_id: au.id,
        registration: reg.registration,
        session_id: sessionId,
        expiresAt: claims.expiresAt.toISOString(),
      }
    },

    /** POST /cmi5/fetch/{token} (cmi5 §8.2): the session's auth-token, once; its hash is the LRS credential. */
    async fetch(fetchToken: string): Promise<FetchAnswer> {
      if (fetchToken.length > 200) return FETCH_ERRORS.unknown
      const authToken = randomBytes(32).toString('base64')
      const out = await cmi5Repository.fetchAuthToken(orm.em.fork(), tokenHash(fetchToken), authTokenHash(authToken), now())
      return out === 'issued' ? { 'auth-token': authToken } : FETCH_ERRORS[out]
    },

    /** GET /cmi5/{moduleId}/status: the caller's AU statuses (admins: any learner's with `user_id`). */
    async status(actor: Actor, moduleId: number, userId?: string): Promise<Cmi5Status> {
      if (userId !== undefined && userId !== actor.userId && !actor.isAdmin) throw forbidden(CMI5_RUNTIME_MESSAGES.otherLearner, 'forbidden')
      const em = orm.em.fork()
      const { module, structure } = await requireCmi5(em, actor, moduleId)
      return status(em, userId ?? actor.userId, module, structure)
    },

    /**
     * POST /cmi5/{moduleId}/waive (admins, cmi5 §9.3.7): the Waived statement with its reason under
     * a session id of its own, the AU waived (and so satisfied), then moveOn judged as for any
     * AU; recorded in the audit trail.
     */
    async waive(actor: Actor, moduleId: number, body: Cmi5WaiveBody): Promise<Cmi5Status> {
      const em = orm.em.fork()
      const { module, course, structure } = await requireCmi5(em, actor, moduleId)
      const au = auOf(structure, body.au_id)
      const name = await cmi5Repository.userName(em, body.user_id)
      if (name === undefined) throw notFound(CMI5_RUNTIME_MESSAGES.userNotFound, 'user_not_found')
      if (!(await courseRepository.isAssigned(em, course.id, body.user_id))) throw badRequest(CMI5_RUNTIME_MESSAGES.notAssigned, 'course_not_assigned')
      const at = now()
      await em.transactional(async (tx) => {
        const reg = await registration(tx, { userId: body.user_id, module, course, structure, at })
        await cmi5Repository.lockRegistration(tx, reg.registration)
        if (!(await cmi5Repository.waive(tx, { registration: reg.registration, auId: au.id, reason: body.reason, at })))
          throw conflict(CMI5_RUNTIME_MESSAGES.alreadyWaived, 'already_waived')
        const sessionId = crypto.randomUUID()
        const waived = lmsStatement({
          actor: learnerAgent(ctx, body.user_id),
          verb: VERB.waived,
          object: activity(lmsIds(homePage(), moduleId).au(au.id), named(au.title)),
          registration: reg.registration,
          sessionId,
          publisherId: au.id,
          at,
          // §9.5.2, §9.5.3: success and completion true; §9.5.5.2: the reason.
          result: { success: true, completion: true, extensions: { [EXT.reason]: body.reason } },
        })
        await insertStatements(tx, [waived], { registration: reg.registration, sessionId, now: at })
        // Satisfied statements this waiver brings share its session id (§9.3.7).
        await judge(tx, { reg, module, course, structure, sessionId, at })
        await auditTrail.record(tx, actor, 'cmi5.au_waived', `${name ?? body.user_id}: ${au.title} (${module.title})`, {
          user_id: body.user_id,
          module_id: moduleId,
          au_id: au.id,
          reason: body.reason,
        })
      })
      return status(em, body.user_id, module, structure)
    },

    /** Whether onStatements has anything to do with these statements (the LRS stores others by one query). */
    judges,

    /**
     * The LRS's hook (createLrs `onStatements`, in the statements' transaction): the AU's
     * Completed, Passed and Failed ("cmi5 defined": about the AU's activity id, with the cmi5
     * category) into its status, and moveOn judged when they changed it. The session's own
     * columns (last statement, Initialized, Terminated) are kept by the LRS's insert.
     */
    async onStatements(tx: EntityManager, session: Cmi5SessionCredential, statements: XapiStatement[]): Promise<void> {
      if (!judges(statements)) return
      const at = now()
      const activityId = lmsIds(homePage(), session.moduleId).au(session.auId)
      const judged = statements.filter((s) => JUDGED_VERBS.has(s.verb.id) && cmi5Defined(s, activityId))
      if (!judged.length) return
      const reg = await cmi5Repository.lockRegistration(tx, session.registration)
      const module = await courseRepository.findModuleRow(tx, session.moduleId)
      const course = module && (await courseRepository.findCourseRow(tx, module.course_id))
      const structure = module && structureOf(module)
      if (!reg || !module || !course || !structure) throw moduleNotFound()
      for (const s of judged) {
        const when = new Date(s.timestamp)
        const scaled = s.result?.score?.scaled
        await cmi5Repository.recordAu(tx, {
          registration: session.registration,
          auId: session.auId,
          completedAt: s.verb.id === VERB.completed ? when : null,
          passedAt: s.verb.id === VERB.passed ? when : null,
          failedAt: s.verb.id === VERB.failed ? when : null,
          score: s.verb.id !== VERB.completed && typeof scaled === 'number' ? scaled : null,
        })
      }
      // Satisfied statements this session brings carry its session id (§9.3.9).
      await judge(tx, { reg, module, course, structure, sessionId: session.sessionId, at })
    },

    /** The abandon sweep's pass: sessions past their end without Terminated get Abandoned, a batch per transaction. */
    async abandonExpired(): Promise<{ done: number; more: boolean }> {
      const at = now()
      const n = await orm.em.fork().transactional(async (tx) => {
        const sessions = await cmi5Repository.expiredSessions(tx, at, ABANDON_BATCH)
        await abandon(tx, sessions, at)
        return sessions.length
      })
      return { done: n, more: n === ABANDON_BATCH }
    },

    /** The LMS's activity ids of a module's AUs, blocks and course (what tests and reports look statements up by). */
    lmsIds: (moduleId: number): LmsIds => lmsIds(homePage(), moduleId),
  }
}
export type Cmi5Service = ReturnType<typeof createCmi5Service>
