import type { EntityManager } from '@mikro-orm/postgresql'
import { AppError, badRequest, forbidden, notFound } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { agentKey, learnerAgent } from './agents.ts'
import { deleteDocuments, getDocument, listDocumentIds, putDocument, type DocumentScope, type StoredDocument } from './documents.repository.ts'
import { AgentParam, type StatementsQuery } from './schemas.ts'
import { findStatement, findStatements, insertGuarded, insertOneGuarded, VOIDED_VERB } from './statements.repository.ts'
import { checkStatement } from './validation.ts'
import type { Cmi5SessionCredential, XapiActor, XapiStatement } from './types.ts'

export const TERMINATED_VERB = 'http://adlnet.gov/expapi/verbs/terminated'
export const INITIALIZED_VERB = 'http://adlnet.gov/expapi/verbs/initialized'

export interface LrsHooks {
  /**
   * Runs in the insert's transaction with the statements stored now (not those already stored
   * under the same id): the cmi5 runtime's session state and completion. An error (an AppError
   * for the AU) rolls the insert back.
   */
  onStatements(em: EntityManager, session: Cmi5SessionCredential, statements: XapiStatement[]): Promise<void>
  /**
   * Whether onStatements has anything to do with these statements (the session's own columns,
   * its last statement, Initialized and Terminated, are kept by the insert itself). When it has
   * not, a single statement is stored by one query outside a transaction: an AU's usual
   * statement, the LRS's hot path. Absent: always.
   */
  judges?(statements: readonly XapiStatement[]): boolean
}

/** Largest statements body or document (bytes). */
export const LRS_MAX_BODY_BYTES = 1024 * 1024
/** The default and the largest page of a statements query. */
export const DEFAULT_STATEMENT_LIMIT = 100
export const MAX_STATEMENT_LIMIT = 500

/** A query string's agent: JSON with exactly one identifier; 400 otherwise. */
export function parseAgent(text: string): XapiActor {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw badRequest('agent must be JSON (an Agent or identified Group)', 'invalid_agent')
  }
  const parsed = AgentParam.safeParse(json)
  if (!parsed.success) throw badRequest(`agent: ${parsed.error.issues[0]!.message}`, 'invalid_agent')
  return parsed.data as XapiActor
}

/** The statements body: one statement or an array of them (at least one). */
export function parseStatementsBody(text: string): { list: unknown[]; single: boolean } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw badRequest('The body must be a JSON statement or an array of statements', 'invalid_json')
  }
  if (Array.isArray(json)) {
    if (json.length === 0) throw badRequest('The array of statements is empty', 'invalid_statement')
    return { list: json, single: false }
  }
  return { list: [json], single: true }
}

export type DocumentResource = 'state' | 'activity_profile' | 'agent_profile'

/** The xAPI resources of one AU session (its learner and registration only). */
/**
 * Stores an AU's statements (checked) for its session, with the runtime's hook; answers whether
 * they hold a Terminated (the session ends with it). A single statement the hook does not judge
 * is one query outside a transaction (the hot path); anything else one transaction with the hook.
 */
export async function storeAuStatements(ctx: LearningContext, hooks: LrsHooks, session: Cmi5SessionCredential, statements: XapiStatement[]): Promise<{ terminated: boolean }> {
  const ids = new Set(statements.map((s) => s.id))
  if (ids.size !== statements.length) throw badRequest('The batch has the same statement id twice', 'duplicate_statement_id')
  const now = ctx.now()
  const terminated = statements.some((s) => s.verb.id === TERMINATED_VERB)
  const meta = { registration: session.registration, sessionId: session.sessionId, now }
  const note = { sessionId: session.sessionId, at: now, initialized: statements.some((s) => s.verb.id === INITIALIZED_VERB), terminated }
  if (statements.length === 1 && hooks.judges?.(statements) === false) {
    // One statement, one query: nothing else to keep consistent with it.
    await insertOneGuarded(ctx.orm, statements[0]!, meta, note)
    return { terminated }
  }
  await ctx.orm.em.fork().transactional(async (tx) => {
    const stored = new Set(await insertGuarded(tx, statements, meta, note))
    const fresh = statements.filter((s) => stored.has(s.id))
    if (fresh.length > 0) await hooks.onStatements(tx, session, fresh)
  })
  return { terminated }
}

export function createLrsService(ctx: LearningContext, hooks: LrsHooks) {
  const learnerKey = (s: Cmi5SessionCredential) => agentKey(learnerAgent(ctx, s.userId))

  /** The checks of a statement an AU sends: valid xAPI, its session's learner and registration, no voiding. */
  const checkAuStatement = (session: Cmi5SessionCredential, raw: unknown, now: Date, index?: number) => {
    const s = checkStatement(raw, now, index)
    const at = index === undefined ? '' : `Statement ${index}: `
    if (agentKey(s.actor) !== learnerKey(session)) throw forbidden(`${at}the actor must be the session's learner`, 'wrong_actor')
    if (s.context?.registration !== session.registration) throw forbidden(`${at}context.registration must be the session's registration`, 'wrong_registration')
    if (s.verb.id === VOIDED_VERB) throw forbidden(`${at}an AU may not void statements`, 'voiding_refused')
    // The LRS vouches for what it stores: the authority is always the portal's LMS, whatever the AU claims.
    delete s.authority
    return s
  }

  const store = (session: Cmi5SessionCredential, statements: XapiStatement[]) => storeAuStatements(ctx, hooks, session, statements)

  const documentScope = (session: Cmi5SessionCredential, kind: DocumentResource, q: { activityId?: string; agent?: string; registration?: string }): DocumentScope => {
    const scope: DocumentScope = { kind }
    if (kind !== 'agent_profile') scope.activityId = q.activityId
    if (kind !== 'activity_profile') {
      const agent = parseAgent(q.agent!)
      if (agentKey(agent) !== learnerKey(session)) throw forbidden("Only the session learner's documents are open to this credential", 'wrong_agent')
      scope.agent = agent
    }
    if (kind === 'state' && q.registration !== undefined) {
      if (q.registration !== session.registration) throw forbidden("Only the session's registration is open to this credential", 'wrong_registration')
      scope.registration = q.registration
    }
    return scope
  }

  return {
    /** POST: one statement or a batch, all or nothing; answers their ids (and whether one was Terminated). */
    async postStatements(session: Cmi5SessionCredential, body: string): Promise<{ ids: string[]; terminated: boolean }> {
      const now = ctx.now()
      const { list } = parseStatementsBody(body)
      const statements = list.map((raw, i) => checkAuStatement(session, raw, now, list.length > 1 ? i : undefined))
      const { terminated } = await store(session, statements)
      return { ids: statements.map((s) => s.id), terminated }
    },

    /** PUT with statementId: the body is that statement (its own id, if any, must agree). */
    async putStatement(session: Cmi5SessionCredential, statementId: string, body: string): Promise<{ terminated: boolean }> {
      const { list, single } = parseStatementsBody(body)
      if (!single) throw badRequest('PUT takes one statement, not an array', 'invalid_statement')
      const raw = list[0] as Record<string, unknown> | null
      if (raw && typeof raw === 'object' && raw.id !== undefined && raw.id !== statementId) throw badRequest('The statement id differs from statementId', 'statement_id_mismatch')
      if (raw && typeof raw === 'object') raw.id = statementId
      return store(session, [checkAuStatement(session, raw, ctx.now())])
    },

    /** GET of one statement (by id, or a voided one by voidedStatementId) of the session's registration. */
    async getStatement(session: Cmi5SessionCredential, id: string, voided: boolean): Promise<XapiStatement> {
      const row = await findStatement(ctx.orm.em.fork(), id, voided)
      // Another registration's statement is as unknown to this credential as a missing one.
      if (!row || row.registration !== session.registration) throw notFound(voided ? 'No voided statement has this id' : 'No statement has this id', 'statement_not_found')
      return row.statement
    },

    /** A page of the session registration's statements, and the cursor of the next page. */
    async queryStatements(session: Cmi5SessionCredential, q: StatementsQuery) {
      if (q.related_activities || q.related_agents) throw badRequest('related_activities and related_agents are not supported by this LRS', 'unsupported_filter')
      if (q.registration !== undefined && q.registration !== session.registration)
        throw forbidden("Only the session's registration is open to this credential", 'wrong_registration')
      const limit = !q.limit ? DEFAULT_STATEMENT_LIMIT : Math.min(q.limit, MAX_STATEMENT_LIMIT)
      return findStatements(ctx.orm.em.fork(), {
        registration: session.registration,
        agentKey: q.agent === undefined ? undefined : agentKey(parseAgent(q.agent)),
        verb: q.verb,
        activity: q.activity,
        since: q.since,
        until: q.until,
        ascending: q.ascending ?? false,
        limit: q.limit === 0 ? MAX_STATEMENT_LIMIT : limit,
        after: q.cursor,
      })
    },

    documentScope,

    async getDocument(session: Cmi5SessionCredential, kind: DocumentResource, q: { activityId?: string; agent?: string; registration?: string }, id: string) {
      return getDocument(ctx.orm.em.fork(), documentScope(session, kind, q), id)
    },

    async listDocumentIds(session: Cmi5SessionCredential, kind: DocumentResource, q: { activityId?: string; agent?: string; registration?: string; since?: string }) {
      return listDocumentIds(ctx.orm.em.fork(), documentScope(session, kind, q), q.since)
    },

    /**
     * PUT (replace) or POST (merge JSON objects) of a document, under the If-Match /
     * If-None-Match preconditions; profiles refuse a blind overwrite (409).
     */
    async writeDocument(
      session: Cmi5SessionCredential,
      kind: DocumentResource,
      q: { activityId?: string; agent?: string; registration?: string },
      id: string,
      write: { method: 'PUT' | 'POST'; content: Buffer; contentType: string; ifMatch?: string; ifNoneMatch?: string },
    ): Promise<void> {
      const scope = documentScope(session, kind, q)
      const isJson = /^application\/json\b/i.test(write.contentType)
      const asObject = (b: Buffer) => {
        try {
          const v = JSON.parse(b.toString('utf8')) as unknown
          return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
        } catch {
          return null
        }
      }
      const incoming = write.method === 'POST' ? asObject(write.content) : null
      if (write.method === 'POST' && (!isJson || !incoming))
        throw badRequest('POST merges JSON: send a JSON object with Content-Type application/json (PUT replaces any document)', 'not_json')
      await ctx.orm.em.fork().transactional(async (tx) => {
        const existing = await getDocument(tx, scope, id, true)
        checkPreconditions(existing, write.ifMatch, write.ifNoneMatch)
        if (write.method === 'PUT' && existing && kind !== 'state' && write.ifMatch === undefined && write.ifNoneMatch === undefined)
          throw new AppError(409, 'precondition_required', 'This document exists: send If-Match with its ETag (or If-None-Match: *) to change it')
        let content = write.content
        let contentType = write.contentType
        if (write.method === 'POST' && existing) {
          const old = /^application\/json\b/i.test(existing.contentType) ? asObject(existing.content) : null
          if (!old) throw badRequest('The stored document is not a JSON object: it cannot be merged', 'not_json')
          content = Buffer.from(JSON.stringify({ ...old, ...incoming }))
          contentType = 'application/json'
        }
        await putDocument(tx, { ...scope, documentId: id, content, contentType, now: ctx.now() })
      })
    },

    /** DELETE of one document (`id`) or, for State, all of a scope's; If-Match is honoured. */
    async deleteDocument(
      session: Cmi5SessionCredential,
      kind: DocumentResource,
      q: { activityId?: string; agent?: string; registration?: string },
      id: string | null,
      ifMatch?: string,
    ) {
      const scope = documentScope(session, kind, q)
      await ctx.orm.em.fork().transactional(async (tx) => {
        if (id !== null && ifMatch !== undefined) checkPreconditions(await getDocument(tx, scope, id, true), ifMatch, undefined)
        await deleteDocuments(tx, scope, id)
      })
    },
  }
}

export type LrsService = ReturnType<typeof createLrsService>

/** The entity tags of an If-Match / If-None-Match header (`*` stays `*`). */
const tagsOf = (header: string) =>
  header.split(',').map((t) =>
    t
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1'),
  )

/** 412 when the document's ETag does not meet the request's preconditions (xAPI 1.0.3 concurrency). */
function checkPreconditions(existing: StoredDocument | null, ifMatch: string | undefined, ifNoneMatch: string | undefined) {
  if (ifMatch !== undefined) {
    const tags = tagsOf(ifMatch)
    if (!existing || !(tags.includes('*') || tags.includes(existing.etag)))
      throw new AppError(412, 'precondition_failed', 'The document has changed (or does not exist): If-Match does not match its ETag')
  }
  if (ifNoneMatch !== undefined && existing) {
    const tags = tagsOf(ifNoneMatch)
    if (tags.includes('*') || tags.includes(existing.etag)) throw new AppError(412, 'precondition_failed', 'The document exists: If-None-Match refuses to overwrite it')
  }
}
