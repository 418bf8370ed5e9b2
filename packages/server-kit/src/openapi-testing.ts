import type { Hono } from 'hono'
import { expect, it } from 'vitest'
import type { AppEnv } from './http.ts'
import { undocumentedRoutes, type OpenApiDocument } from './openapi.ts'

// Tests only (imports vitest): kept out of `testing.ts`, which benches import outside the runner.
/**
 * The rules every service's OpenAPI document keeps, as two tests of the calling `describe`: OpenAPI
 * 3.1 with the bearer scheme and the one error shape, and every route of the app documented.
 * `get` reads the app and its document once the suite's `beforeAll` has made them.
 */
export function itKeepsTheServiceDocumentRules(get: () => { app: Hono<AppEnv>; document: OpenApiDocument }) {
  it('is OpenAPI 3.1 with the bearer scheme and the one error shape', () => {
    const { document } = get()
    expect(document.openapi).toBe('3.1.0')
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    expect(document.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['message', 'code'] })
  })

  it('documents every route of the app', () => {
    const { app, document } = get()
    expect(undocumentedRoutes(app, document)).toEqual([])
  })
}
