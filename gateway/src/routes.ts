/**
 * Which service owns which public path of the portal. Course content (`/api/content`) is not one
 * of them: it is served on the content origin only (content.ts).
 */
export type Upstream = 'identity' | 'learning' | 'certs' | 'notify'

export interface RouteEntry {
  /**
   * Public path prefix (matched on whole segments), or with `exact` one path whose `:name`
   * segments stand for any one segment (a trailing slash is allowed).
   */
  prefix: string
  /** The entry is one route (method and path), not a prefix: it wins over the prefixes. */
  exact?: { method?: string }
  upstream: Upstream
  /** Prefix removed before forwarding (services do not know about `/api`). */
  strip: string
  /**
   * `upload`: the service answers once the whole upload is in, so the route gets the long upstream
   * timeout (the others the short one).
   */
  timeout?: 'upload'
  /**
   * Every write of the route may be sent again and changes nothing the second time (a SCORM commit:
   * ordered by its launch and seq, a repeat is answered `applied: false`), so the gateway sends it
   * to another replica when the first could not be reached, as with an Idempotency-Key.
   */
  repeatable?: true
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  // Each service's OpenAPI document (its /openapi.json), for the API explorer at /api/docs.
  { prefix: '/api/identity/openapi.json', exact: { method: 'GET' }, upstream: 'identity', strip: '/api/identity' },
  { prefix: '/api/learning/openapi.json', exact: { method: 'GET' }, upstream: 'learning', strip: '/api/learning' },
  { prefix: '/api/certs/openapi.json', exact: { method: 'GET' }, upstream: 'certs', strip: '/api/certs' },
  { prefix: '/api/notify/openapi.json', exact: { method: 'GET' }, upstream: 'notify', strip: '/api/notify' },
  // A user's stats belong to learning (the rest of /users to identity).
  { prefix: '/api/users/:id/stats', exact: {}, upstream: 'learning', strip: '/api' },
  // Course uploads and the timing editor's edit with a replacement video.
  { prefix: '/api/courses', exact: { method: 'POST' }, upstream: 'learning', strip: '/api', timeout: 'upload' },
  { prefix: '/api/courses/:id', exact: { method: 'PUT' }, upstream: 'learning', strip: '/api', timeout: 'upload' },
  { prefix: '/api/scorm-editor/edit-timing', exact: { method: 'POST' }, upstream: 'learning', strip: '/api', timeout: 'upload' },
  { prefix: '/api/auth', upstream: 'identity', strip: '/api' },
  { prefix: '/api/users', upstream: 'identity', strip: '/api' },
  { prefix: '/api/admin/user-groups', upstream: 'identity', strip: '/api' },
  // The admin console's Sign-in section: company sign-in providers (decision 0052).
  { prefix: '/api/admin/sign-in', upstream: 'identity', strip: '/api' },
  { prefix: '/api/exams', upstream: 'learning', strip: '/api' },
  { prefix: '/api/admin/exams', upstream: 'learning', strip: '/api' },
  { prefix: '/api/courses', upstream: 'learning', strip: '/api' },
  { prefix: '/api/admin/courses', upstream: 'learning', strip: '/api' },
  { prefix: '/api/modules', upstream: 'learning', strip: '/api' },
  { prefix: '/api/scorm', upstream: 'learning', strip: '/api' },
  { prefix: '/api/scorm-editor', upstream: 'learning', strip: '/api' },
  // cmi5 launches, AU statuses and waivers (issue 26); its fetch URL is the content origin's (below).
  { prefix: '/api/cmi5', upstream: 'learning', strip: '/api' },
  // Training that is due (issue 24): admins' assignment rules, each learner's own assignments.
  { prefix: '/api/admin/assignment-rules', upstream: 'learning', strip: '/api' },
  // Statements out (issue 26): the external learning record store's settings and connection test.
  { prefix: '/api/admin/lrs-forwarding', upstream: 'learning', strip: '/api' },
  { prefix: '/api/assignments', upstream: 'learning', strip: '/api' },
  { prefix: '/api/technician', upstream: 'certs', strip: '/api' },
  { prefix: '/api/admin/certifications', upstream: 'certs', strip: '/api' },
  { prefix: '/api/manager', upstream: 'certs', strip: '/api' },
  { prefix: '/api/reports', upstream: 'certs', strip: '/api' },
  { prefix: '/api/revenue', upstream: 'certs', strip: '/api' },
  { prefix: '/api/certification-notifications', upstream: 'certs', strip: '/api' },
  { prefix: '/api/admin/audit/identity', upstream: 'identity', strip: '/api' },
  { prefix: '/api/admin/audit/learning', upstream: 'learning', strip: '/api' },
  { prefix: '/api/admin/audit/notify', upstream: 'notify', strip: '/api' },
  { prefix: '/api/admin/audit/certs', upstream: 'certs', strip: '/api' },
  { prefix: '/api/admin/emails', upstream: 'notify', strip: '/api' },
  { prefix: '/api/admin/notification-rules', upstream: 'notify', strip: '/api' },
  { prefix: '/api/email-reports', upstream: 'notify', strip: '/api' },
  { prefix: '/api/dev/mailbox', upstream: 'notify', strip: '/api' },
  { prefix: '/mailbox', upstream: 'notify', strip: '' },
]

/**
 * What the content origin routes to the services (content.ts): the files of a launch, its
 * commits, and what cmi5 AUs call (issue 26): the learning record store and the one-time fetch URL
 * of the launch's auth-token. They are the content origin's only: the portal routes none of them,
 * whatever prefix of its own table would take them (`/api/scorm`, `/api/cmi5`).
 */
export const CONTENT_ROUTE_TABLE: readonly RouteEntry[] = [
  { prefix: '/api/content', upstream: 'learning', strip: '/api' },
  { prefix: '/api/scorm/commit', upstream: 'learning', strip: '/api', repeatable: true },
  { prefix: '/api/lrs', upstream: 'learning', strip: '/api' },
  { prefix: '/api/cmi5/fetch', upstream: 'learning', strip: '/api' },
]

/** Whether an exact entry names this request (its `:name` segments any one segment). */
function isExactly(r: RouteEntry, method: string | undefined, path: string): boolean {
  if (!r.exact || (r.exact.method && r.exact.method !== method)) return false
  const want = r.prefix.split('/')
  const got = (path.endsWith('/') ? path.slice(0, -1) : path).split('/')
  return want.length === got.length && want.every((w, i) => (w.startsWith(':') ? got[i] !== '' : w === got[i]))
}

/**
 * The route for a request (`path` without its query): an exact entry naming it, or else the
 * longest prefix that matches whole path segments.
 */
export function resolveRoute(path: string, table: readonly RouteEntry[] = ROUTE_TABLE, method?: string): RouteEntry | undefined {
  let best: RouteEntry | undefined
  for (const r of table) {
    if (r.exact) {
      if (isExactly(r, method, path)) return r
    } else if ((path === r.prefix || path.startsWith(r.prefix + '/')) && (!best || r.prefix.length > best.prefix.length)) best = r
  }
  return best
}

/** The portal's route for a request: none for a path of the content origin (see CONTENT_ROUTE_TABLE). */
export function resolvePortalRoute(path: string, table: readonly RouteEntry[] = ROUTE_TABLE, method?: string): RouteEntry | undefined {
  return resolveRoute(path, CONTENT_ROUTE_TABLE) ? undefined : resolveRoute(path, table, method)
}

/** Whether a request (its URL with or without a query) gets the long timeout of an upload route. */
export function isUpload(method: string | undefined, url: string, table: readonly RouteEntry[] = ROUTE_TABLE): boolean {
  const q = url.indexOf('?')
  return resolveRoute(q === -1 ? url : url.slice(0, q), table, method)?.timeout === 'upload'
}
