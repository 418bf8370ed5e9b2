// The xAPI 1.0.3 shapes the learning record store stores and answers (decision 0053). The library
// validation (validation.ts) checks incoming statements; these types describe what passed it.

export interface XapiAccount {
  homePage: string
  name: string
}

/** An Agent: exactly one identifier (mbox, mbox_sha1sum, openid or account). The portal's learners use `account`. */
export interface XapiAgent {
  objectType?: 'Agent'
  name?: string
  mbox?: string
  mbox_sha1sum?: string
  openid?: string
  account?: XapiAccount
}

/** A Group: identified (one identifier) or anonymous (members only). */
export interface XapiGroup {
  objectType: 'Group'
  name?: string
  member?: XapiAgent[]
  mbox?: string
  mbox_sha1sum?: string
  openid?: string
  account?: XapiAccount
}

export type XapiActor = XapiAgent | XapiGroup

export type XapiLanguageMap = Record<string, string>

export interface XapiVerb {
  id: string
  display?: XapiLanguageMap
}

export interface XapiActivity {
  objectType?: 'Activity'
  id: string
  definition?: {
    name?: XapiLanguageMap
    description?: XapiLanguageMap
    type?: string
    moreInfo?: string
    extensions?: Record<string, unknown>
    [key: string]: unknown
  }
}

export interface XapiStatementRef {
  objectType: 'StatementRef'
  id: string
}

export interface XapiResult {
  score?: { scaled?: number; raw?: number; min?: number; max?: number }
  success?: boolean
  completion?: boolean
  response?: string
  duration?: string
  extensions?: Record<string, unknown>
}

export interface XapiContext {
  registration?: string
  instructor?: XapiActor
  team?: XapiGroup
  contextActivities?: { parent?: XapiActivity[]; grouping?: XapiActivity[]; category?: XapiActivity[]; other?: XapiActivity[] }
  revision?: string
  platform?: string
  language?: string
  statement?: XapiStatementRef
  extensions?: Record<string, unknown>
}

export interface XapiSubStatement {
  objectType: 'SubStatement'
  actor: XapiActor
  verb: XapiVerb
  object: XapiActivity | (XapiAgent & { objectType: 'Agent' }) | XapiGroup | XapiStatementRef
  result?: XapiResult
  context?: XapiContext
  timestamp?: string
}

export type XapiObject = XapiActivity | (XapiAgent & { objectType: 'Agent' }) | XapiGroup | XapiStatementRef | XapiSubStatement

/**
 * A statement as stored: `id` and `timestamp` always there (the LRS fills them when a client left
 * them out); `stored`, `authority` and `version` are the LRS's (insertStatements sets them).
 */
export interface XapiStatement {
  id: string
  actor: XapiActor
  verb: XapiVerb
  object: XapiObject
  result?: XapiResult
  context?: XapiContext
  timestamp: string
  stored?: string
  authority?: XapiActor
  version?: string
  attachments?: unknown[]
}

/** The cmi5 session an AU's auth-token stands for (cmi5_sessions + its registration). */
export interface Cmi5SessionCredential {
  sessionId: string
  registration: string
  auId: string
  userId: string
  moduleId: number
  courseId: number
  terminatedAt: Date | null
  abandonedAt: Date | null
}

export type XapiDocumentKind = 'state' | 'activity_profile' | 'agent_profile'

/** One State, Activity Profile or Agent Profile document. */
export interface XapiDocument {
  kind: XapiDocumentKind
  /** The activity (state, activity profile). */
  activityId?: string
  /** The agent (state, agent profile). */
  agent?: XapiActor
  /** The registration of a state document. */
  registration?: string | null
  documentId: string
  content: Buffer
  contentType: string
}
