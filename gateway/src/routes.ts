/**
 * Which service owns which public path of the portal. Course content (`/api/content`) is not one
 * of them: it is served on the content origin only (content.ts).
 */
export type Upstream = 'identity' | 'learning' | 'certs' | 'notify'

export interface RouteEntry {
  /** Public path prefix (matched on whole segments). */
  prefix: string
  upstream: Upstream
  /** Prefix removed before forwarding (services do not know about `/api`). */
  strip: string
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { prefix: '/api/auth', upstream: 'identity', strip: '/api' },
  { prefix: '/api/users', upstream: 'identity', strip: '/api' },
  { prefix: '/api/admin/user-groups', upstream: 'identity', strip: '/api' },
  { prefix: '/api/exams', upstream: 'learning', strip: '/api' },
  { prefix: '/api/admin/exams', upstream: 'learning', strip: '/api' },
  { prefix: '/api/courses', upstream: 'learning', strip: '/api' },
  { prefix: '/api/admin/courses', upstream: 'learning', strip: '/api' },
  { prefix: '/api/modules', upstream: 'learning', strip: '/api' },
  { prefix: '/api/scorm', upstream: 'learning', strip: '/api' },
  { prefix: '/api/scorm-editor', upstream: 'learning', strip: '/api' },
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

/** The route for a path: the longest prefix that matches whole path segments. */
export function resolveRoute(path: string, table: readonly RouteEntry[] = ROUTE_TABLE): RouteEntry | undefined {
  let best: RouteEntry | undefined
  for (const r of table) {
    if ((path === r.prefix || path.startsWith(r.prefix + '/')) && (!best || r.prefix.length > best.prefix.length)) best = r
  }
  return best
}

/**
 * Course uploads (POST /api/courses, PUT /api/courses/{id}) and the timing editor's edit with a
 * replacement video (POST /api/scorm-editor/edit-timing): learning answers them once the whole
 * upload is in, so they alone get the long upstream timeout.
 */
export const isUpload = (method: string | undefined, path: string) =>
  (method === 'POST' && /^\/api\/(?:courses|scorm-editor\/edit-timing)\/?(?:\?|$)/.test(path)) ||
  (method === 'PUT' && /^\/api\/courses\/[^/?]+\/?(?:\?|$)/.test(path))
