import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { undocumentedRoutes, type OpenApiDocument } from '@portal/server-kit'
import { createHarness, type Harness } from './harness.test-support.ts'

let h: Harness
let document: OpenApiDocument
beforeAll(async () => {
  h = await createHarness()
  document = (await h.call('GET', '/openapi.json')).body as OpenApiDocument
})
afterAll(async () => {
  await h?.close()
})

describe("svc-learning's OpenAPI document", () => {
  it('is OpenAPI 3.1 with the bearer scheme and the one error shape', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    expect(document.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['message', 'code'] })
  })

  it('documents every route of the app', () => {
    expect(undocumentedRoutes(h.app, document)).toEqual([])
  })

  it('names the parameters, bodies, responses, bearer scheme and roles of a route', () => {
    const put = document.paths?.['/admin/assignment-rules/{id}']?.put
    expect(put?.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })])
    expect(put?.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object' } } } })
    expect(put?.security).toEqual([{ bearerAuth: [] }])
    expect(put).toMatchObject({ 'x-roles': ['admin'] })
  })

  it('names the credentials of the content origin: the launch token in the path, the LRS auth-token', () => {
    expect(document.paths?.['/scorm/commit/{token}']?.post?.security).toBeUndefined()
    expect(document.paths?.['/lrs/statements']?.post?.security).toEqual([{ lrsAuthToken: [] }])
    expect(document.paths?.['/lrs/about']?.get?.security).toBeUndefined()
    expect(document.components?.securitySchemes?.lrsAuthToken).toMatchObject({ type: 'http', scheme: 'basic' })
  })
})
