// The learning record store (issue 26, decision 0053): xAPI 1.0.3 Statements, State, Activity
// Profile and Agent Profile resources for cmi5 AUs, behind their session's auth-token.
export type {
  Cmi5SessionCredential,
  XapiActivity,
  XapiActor,
  XapiAgent,
  XapiContext,
  XapiDocument,
  XapiDocumentKind,
  XapiGroup,
  XapiObject,
  XapiResult,
  XapiStatement,
  XapiVerb,
} from './types.ts'
export { agentKey, learnerAgent, lmsAuthority, xapiHomePage } from './agents.ts'
export { insertStatements, type InsertMeta } from './statements.repository.ts'
export { putDocument, getDocument } from './documents.repository.ts'
export { authTokenHash } from './credential.ts'
export { createLrs, LRS_SECURITY_SCHEME, XAPI_VERSION, type LrsOptions } from './lrs.routes.ts'
export { storeAuStatements, type LrsHooks } from './lrs.service.ts'
