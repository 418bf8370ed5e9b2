import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OpenApiDocument } from '@portal/server-kit'
import { itKeepsTheServiceDocumentRules } from '@portal/server-kit/openapi-testing'
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
  itKeepsTheServiceDocumentRules(() => ({ app: h.app, document }))

  it('names the parameters, bodies, responses, bearer scheme and roles of a route', () => {
    const put = document.paths?.['/admin/assignment-rules/{id}']?.put
    expect(put?.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'id', required: true }),
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: false }),
    ])
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
