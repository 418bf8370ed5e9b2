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

describe("svc-certs's OpenAPI document", () => {
  it('is OpenAPI 3.1 with the bearer scheme and the one error shape', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    expect(document.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['message', 'code'] })
  })

  it('documents every route of the app', () => {
    expect(undocumentedRoutes(h.app, document)).toEqual([])
  })

  it('names the parameters, bodies, responses, bearer scheme and roles of a route', () => {
    const put = document.paths?.['/admin/certifications/{id}']?.put
    expect(put?.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })])
    expect(put?.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object' } } } })
    expect(Object.keys(put?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404', '409', 'default'])
    expect(put?.security).toEqual([{ bearerAuth: [] }])
    expect(put).toMatchObject({ 'x-roles': ['admin'] })
    const upload = document.paths?.['/technician/certifications/upload']?.post
    expect(upload?.requestBody).toMatchObject({ content: { 'multipart/form-data': { schema: { type: 'object' } } } })
    expect(upload).toMatchObject({ 'x-roles': ['the technician themself or an admin'] })
  })

  it('leaves the e-mailed acknowledgement link public', () => {
    expect(document.paths?.['/certification-notifications/acknowledge']?.post?.security).toBeUndefined()
    expect(document.paths?.['/certification-notifications/logs']?.get?.security).toEqual([{ bearerAuth: [] }])
  })
})
