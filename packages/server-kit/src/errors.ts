import type { Context, ErrorHandler, NotFoundHandler, ValidationTargets } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { zValidator } from '@hono/zod-validator'
import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core'
import type { z } from 'zod'
import type { Logger } from './logger.ts'
import { AppError, type Extra } from './app-error.ts'
import { inputError, inputProblem, UNSTORABLE_TEXT_MESSAGE } from './input.ts'
import { documentedInput } from './openapi.ts'

// AppError has a module of its own (input.ts throws it too, and this module uses input.ts); it stays part of this module's API.
export { AppError }

export const badRequest = (message: string, code = 'bad_request', extra?: Extra) => new AppError(400, code, message, extra)
export const unauthorized = (message = 'Authentication required', code = 'unauthorized', extra?: Extra) => new AppError(401, code, message, extra)
export const forbidden = (message = 'You are not allowed to do this', code = 'forbidden', extra?: Extra) => new AppError(403, code, message, extra)
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, code, message)
export const conflict = (message: string, code = 'conflict', extra?: Extra) => new AppError(409, code, message, extra)
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please try again later.') =>
  new AppError(429, 'too_many_requests', message, {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) })

const statusCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
}

/**
 * The database refused text it cannot store: a NUL character (PostgreSQL text and jsonb cannot
 * hold U+0000) or bytes that are not UTF-8. It is the client's input, so a 400, never a 500.
 * (`validate()` checks parsed input before any query; this is the last line.)
 */
export function isUnstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '22P05' || code === '22021'
}

/** `app.onError`: AppError and HTTPException keep their status; anything else is a logged 500. */
export function errorHandler(logger: Logger): ErrorHandler {
  return (err, c) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
      return c.json({ message: err.message, code: err.code, ...err.extra }, err.status as 400)
    }
    if (err instanceof HTTPException && err.status < 500) {
      const message = err.status === 413 ? 'Request body is too large' : err.message || 'Bad request'
      return c.json({ message, code: statusCodes[err.status] ?? 'bad_request' }, err.status)
    }
    const requestId = c.get('requestId' as never) as string | undefined
    // MikroORM's `findOneOrFail` miss is a 404; its message names the query, so it is not shown.
    if (err instanceof NotFoundError) return c.json({ message: 'Not found', code: 'not_found' }, 404)
    // A unique key hit by a concurrent request is a conflict, not a server failure.
    if (err instanceof UniqueConstraintViolationException) {
      logger.warn('unique constraint violated', { requestId, path: c.req.path, err })
      return c.json({ message: 'That already exists', code: 'conflict' }, 409)
    }
    if (isUnstorableText(err)) return c.json({ message: UNSTORABLE_TEXT_MESSAGE, code: 'invalid_text' }, 400)
    logger.error('unhandled error', { err: err as Error, requestId, path: c.req.path })
    return c.json({ message: 'Something went wrong. Please try again later.', code: 'internal_error' }, 500)
  }
}

export const notFoundHandler: NotFoundHandler = (c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}`, code: 'route_not_found' }, 404)

/** A readable message for one zod issue: missing fields say "<field> is required". */
function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.')
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message) && field) return `${field} is required`
  return issue.message
}

/** 400 `validation_failed` for input checked outside `validate` (e.g. the text fields of a multipart form). */
export function validationFailed(error: z.ZodError): AppError {
  const issues = error.issues
  return new AppError(400, 'validation_failed', issueMessage(issues[0]!), {
    details: issues.map((i) => ({ path: i.path.join('.'), message: issueMessage(i) })),
  })
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i

/**
 * zValidator answering bad input with 400 `{message, code: 'validation_failed', details}`. It also
 * carries its schema for the service's OpenAPI document (`openapi.ts`): the parameter or body is
 * documented from the very contract that checks it.
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  documentedInput(
    zValidator(target, schema, (result, c: Context) => {
      // A JSON route given another type would see an empty body and answer "x is required": say what is wrong.
      if (target === 'json' && !JSON_TYPE.test(c.req.header('content-type') ?? ''))
        return c.json({ message: 'Send the body as JSON (Content-Type: application/json)', code: 'unsupported_media_type' }, 415)
      if (!result.success) {
        const issues = result.error.issues
        return c.json(
          {
            message: issueMessage(issues[0]!),
            code: 'validation_failed',
            details: issues.map((i) => ({ path: i.path.join('.'), message: issueMessage(i) })),
          },
          400,
        )
      }
      // Text the database cannot store, or nesting too deep to store, whatever the schema allowed.
      const problem = inputProblem(result.data)
      if (problem) {
        const err = inputError(problem)
        return c.json({ message: err.message, code: err.code }, 400)
      }
    }),
    target,
    schema,
  )
