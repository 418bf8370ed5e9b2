import type { Hono, MiddlewareHandler } from 'hono'
import { describeRoute, generateSpecs, resolver, uniqueSymbol } from 'hono-openapi'
import type { OpenAPIV3_1 } from 'openapi-types'
import { z } from 'zod'
import { ErrorBody } from '@portal/contracts'
import type { AppEnv } from './http.ts'

/**
 * OpenAPI 3.1 of a service, generated from the routes themselves (hono-openapi reads what the
 * route's middleware carry): `validate()` documents the parameters and bodies from the same zod
 * contract it checks, `authenticate` the bearer scheme and its 401, `requireAdmin` the admin role
 * and its 403, and `doc()` the summary, role notes and responses. Served at `/openapi.json`.
 */

/** Paths a service serves for the platform (probes, metrics, this document), not part of its API. */
export const PLATFORM_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics', '/openapi.json']

export const BEARER_SCHEME = 'bearerAuth'

/** A document as hono-openapi attaches it to a middleware. */
type RouteSpec = Parameters<typeof describeRoute>[0]

const BINARY: OpenAPIV3_1.SchemaObject = { type: 'string', format: 'binary' }
const errorRef = { $ref: '#/components/schemas/Error' } as const
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } })

/** Attaches an operation's documentation to a middleware (how hono-openapi finds it on a route). */
export function documented<M extends MiddlewareHandler>(middleware: M, spec: RouteSpec): M {
  return Object.assign(middleware, { [uniqueSymbol]: { spec } })
}

/** Marks `validate()`'s middleware with the schema it checks, so the document lists the parameter or body. */
export function documentedInput<M extends MiddlewareHandler>(middleware: M, target: string, schema: z.ZodType): M {
  const media = target === 'form' ? 'multipart/form-data' : undefined
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema), options: media ? { media } : undefined } })
}

/** What `authenticate` adds to every operation behind it. */
export const BEARER_SPEC: RouteSpec = {
  security: [{ [BEARER_SCHEME]: [] }],
  responses: { 401: errorResponse('No valid bearer token (`invalid_token`, `token_expired`, `token_stale`)') },
}

/** What `requireAdmin` adds. */
export const ADMIN_SPEC: RouteSpec = {
  'x-roles': ['admin'],
  responses: { 403: errorResponse('The caller is not an admin (`admin_required`)') },
} as RouteSpec

/**
 * The header every write of a service takes (idempotency.ts, put on every service's app by
 * `defineService`), listed on each POST, PUT, PATCH and DELETE of its document.
 */
export const IDEMPOTENCY_KEY_PARAMETER: OpenAPIV3_1.ParameterObject = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the write safe to send again: a repeat with the same key, method, path and body within 24 hours is answered with the first answer (`Idempotent-Replayed: true`), never done twice. ' +
    'A repeat while the first runs is a 409 `idempotency_in_progress`; the key with another body a 422 `idempotency_key_reused`; a repeat of a write whose answer was not kept (a file, over 1 MiB, or one setting a cookie) a 409 `idempotency_answer_not_kept`; a malformed key a 400 `invalid_idempotency_key`. See docs/api.md.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
}
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete'])

/** A response: a JSON body's schema, `null` for no body, or another media type (a file, a page). */
export type ResponseDoc = z.ZodType | null | { description?: string; schema?: z.ZodType; media?: string }

export interface RouteDoc {
  summary: string
  description?: string
  tags?: string[]
  /**
   * Who may call it, in words: the access check the route makes first (e.g. "admins", "the
   * learner or a manager whose scope covers them"). Shown in the description and as `x-roles`.
   */
  roles?: string
  /** By status. Error statuses may be named with `null` to list them; their body is always the error shape. */
  responses: Record<number, ResponseDoc>
  /** A body the route reads itself (not through `validate()`): a multipart upload, raw text. */
  body?: { media: string; schema?: z.ZodType; description?: string }
  /** Query parameters read by hand, not through `validate()`. */
  query?: z.ZodObject
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Redirect',
  400: 'Bad input (`validation_failed` and others)',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Not processable',
  429: 'Too many requests',
  503: 'Not available',
}

function responseObject(status: number, r: ResponseDoc) {
  const description = (r && !(r instanceof z.ZodType) && r.description) || STATUS_TEXT[status] || String(status)
  if (status >= 400) return errorResponse(description)
  if (r === null) return { description }
  if (r instanceof z.ZodType) return { description, content: { 'application/json': { schema: resolver(r) } } }
  // A redirect, or an answer without a body.
  if (!r.schema && !r.media) return { description }
  return { description, content: { [r.media ?? 'application/json']: { schema: r.schema ? resolver(r.schema) : BINARY } } }
}

/** Documents one route: `.get('/x', doc({ summary, roles, responses: { 200: Schema } }), handler)`. */
export function doc(d: RouteDoc): MiddlewareHandler {
  const spec: RouteSpec & Record<string, unknown> = {
    summary: d.summary,
    description: [d.description, d.roles && `**Who may call it:** ${d.roles}.`].filter(Boolean).join('\n\n') || undefined,
    tags: d.tags,
    responses: Object.fromEntries(Object.entries(d.responses).map(([s, r]) => [s, responseObject(Number(s), r)])),
  }
  if (d.roles) spec['x-roles-note'] = d.roles
  if (d.body) spec.requestBody = { required: true, description: d.body.description, content: { [d.body.media]: { schema: d.body.schema ? resolver(d.body.schema) : BINARY } } }
  if (d.query)
    spec.parameters = Object.entries(d.query.shape).map(([name, s]) => ({
      in: 'query' as const,
      name,
      required: !(s as z.ZodType).safeParse(undefined).success,
      schema: z.toJSONSchema(s as z.ZodType, { io: 'input', unrepresentable: 'any' }) as never,
    }))
  return describeRoute(spec)
}

const toPathSegment = (s: string) => (s.startsWith(':') ? `{${/^:([^{?]+)/.exec(s)![1]}}` : s)
/** A Hono route path (`/users/:id{[0-9]+}`) in OpenAPI's form (`/users/{id}`). */
export const openApiPath = (path: string) => path.split('/').map(toPathSegment).join('/')

const operationId = (method: string, path: string) =>
  method +
  path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith('{') ? `By-${s.slice(1, -1)}` : s))
    .map((s) => s.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()))
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('')

export interface OpenApiInfo {
  /** The service's name (`notify`). */
  service: string
  title: string
  description?: string
  /** The path the gateway serves the service's routes under (`/api`). */
  serverUrl?: string
  /** Security schemes besides the bearer token (e.g. the LRS's auth-token), named in the routes' `documented()` specs. */
  securitySchemes?: Record<string, OpenAPIV3_1.SecuritySchemeObject>
}

export type OpenApiDocument = OpenAPIV3_1.Document

/** The service's OpenAPI 3.1 document, generated from its app's routes. */
export async function openApiDocument(app: Hono<AppEnv>, info: OpenApiInfo): Promise<OpenApiDocument> {
  const generated = await generateSpecs(app, {
    documentation: {
      info: { title: info.title, version: '1', description: info.description },
      servers: [{ url: info.serverUrl ?? '/api', description: 'Through the gateway' }],
      components: {
        schemas: { Error: z.toJSONSchema(ErrorBody, { target: 'draft-2020-12' }) as OpenAPIV3_1.SchemaObject },
        securitySchemes: {
          ...info.securitySchemes,
          [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "An access token from identity's sign-in (`/api/auth/...`)" },
        },
      },
    },
    excludeStaticFile: false,
    exclude: [...PLATFORM_PATHS],
    defaultValidationErrorResponse: errorResponse('The input does not fit its schema (`validation_failed`, `invalid_json`, `invalid_text`, `unsupported_media_type`)'),
  })
  const document = generated as unknown as OpenApiDocument
  delete (document.components as Record<string, unknown> & { schemas?: Record<string, { $schema?: string }> }).schemas?.Error?.$schema
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {}) as [string, OpenAPIV3_1.OperationObject & Record<string, unknown>][]) {
      // Ids from method and path: the library's may repeat when several middleware describe one prefix.
      op.operationId = operationId(method, path)
      // The roles of the prefix (`requireAdmin`) and of the route (`doc`'s note) in one extension.
      const roles = new Set([...((op['x-roles'] as string[] | undefined) ?? []), ...(op['x-roles-note'] ? [op['x-roles-note'] as string] : [])])
      delete op['x-roles-note']
      if (roles.size) op['x-roles'] = [...roles]
      if (roles.has('admin') && !op.description?.includes('Who may call it')) op.description = [op.description, '**Who may call it:** admins.'].filter(Boolean).join('\n\n')
      // A bearer route named both on its prefix and on itself lists the scheme once.
      if (op.security) op.security = [...new Map(op.security.map((s) => [JSON.stringify(s), s])).values()]
      op.responses ??= {}
      op.responses.default ??= errorResponse('Any other error, in the one error shape')
      if (WRITE_METHODS.has(method)) op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER]
    }
  }
  return document
}

/** Serves the app's document at `/openapi.json` (generated on the first request, once). */
export function serveOpenApi(app: Hono<AppEnv>, info: OpenApiInfo): void {
  let document: Promise<OpenApiDocument> | undefined
  app.get('/openapi.json', async (c) => c.json(await (document ??= openApiDocument(app, info))))
}

/** The routes of an app (method and OpenAPI path) its document lacks or leaves without a summary. */
export function undocumentedRoutes(app: Hono<AppEnv>, document: OpenApiDocument): string[] {
  const missing = new Set<string>()
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.method === 'OPTIONS' || PLATFORM_PATHS.includes(r.path)) continue
    const path = openApiPath(r.path)
    const op = (document.paths?.[path] as Record<string, OpenAPIV3_1.OperationObject> | undefined)?.[r.method.toLowerCase()]
    if (!op?.summary) missing.add(`${r.method} ${path}`)
  }
  return [...missing]
}
