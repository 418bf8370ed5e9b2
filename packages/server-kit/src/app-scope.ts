import { AsyncLocalStorage } from 'node:async_hooks'
import type { MiddlewareHandler } from 'hono'

// Its own module: http.ts reads it, and the middleware put in it (idempotency.ts) import http.ts.
const scope = new AsyncLocalStorage<readonly MiddlewareHandler[]>()

/**
 * Runs `fn` (a service's `features()`) with `middleware` that every app `createServiceApp` makes
 * meanwhile puts after the common middleware and before the service's routes: how `defineService`
 * gives every service's app the platform's request handling (Idempotency-Key) without a line in
 * the service.
 */
export const withAppMiddleware = <T>(middleware: readonly MiddlewareHandler[], fn: () => T): T => scope.run(middleware, fn)

/** The middleware of the service being built (see `withAppMiddleware`); none outside one. */
export const scopedAppMiddleware = (): readonly MiddlewareHandler[] => scope.getStore() ?? []
