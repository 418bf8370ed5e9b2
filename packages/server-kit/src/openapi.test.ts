import { describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { z } from 'zod'
import { authenticate, requireAdmin } from './auth.ts'
import { validate } from './errors.ts'
import type { AppEnv } from './http.ts'
import { doc, openApiDocument, undocumentedRoutes } from './openapi.ts'
import { contractChecker } from './openapi-contract.ts'

const Item = z.object({ id: z.number().int(), name: z.string(), at: z.iso.datetime() })
const verifier = async () => ({ userId: 'u', email: 'u@acme.test', name: 'U', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } })

function sample() {
  const admin = new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .put(
      '/:id{[0-9]+}',
      doc({ summary: 'Renames an item', responses: { 200: Item, 404: null } }),
      validate('param', z.object({ id: z.coerce.number() })),
      validate('json', z.object({ name: z.string() })),
      (c) => c.json({ id: c.req.valid('param').id, name: c.req.valid('json').name, at: new Date().toISOString() }),
    )
  const app = new Hono<AppEnv>()
  app.get('/items', doc({ summary: 'Lists items', roles: 'anyone', responses: { 200: z.array(Item) } }), validate('query', z.object({ q: z.string().optional() })), (c) =>
    c.json([]),
  )
  app.route('/admin/items', admin)
  return app
}

describe('OpenAPI from the routes', () => {
  it('documents parameters, bodies, responses, the bearer scheme and roles from the middleware', async () => {
    const d = await openApiDocument(sample(), { service: 'test', title: 'test' })
    expect(d.openapi).toBe('3.1.0')
    expect(d.paths?.['/items']?.get).toMatchObject({ summary: 'Lists items', operationId: 'getItems', parameters: [{ in: 'query', name: 'q' }], 'x-roles': ['anyone'] })
    expect(d.paths?.['/items']?.get?.security).toBeUndefined()
    const put = d.paths?.['/admin/items/{id}']?.put
    expect(put).toMatchObject({
      operationId: 'putAdminItemsById',
      security: [{ bearerAuth: [] }],
      'x-roles': ['admin'],
      parameters: [
        { in: 'path', name: 'id', required: true },
        { in: 'header', name: 'Idempotency-Key', required: false },
      ],
    })
    expect(put?.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object', required: ['name'] } } } })
    expect(Object.keys(put?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404', 'default'])
  })

  it('names the routes the document lacks (no doc() with a summary)', async () => {
    const app = sample()
    app.post('/items', validate('json', z.object({ name: z.string() })), (c) => c.json({}, 201))
    app.delete('/items/:id', (c) => c.body(null, 204))
    expect(undocumentedRoutes(app, await openApiDocument(app, { service: 'test', title: 'test' }))).toEqual(['POST /items', 'DELETE /items/{id}'])
  })

  it('checks answers against the schemas: body, status and media type', async () => {
    const contract = contractChecker(await openApiDocument(sample(), { service: 'test', title: 'test' }))
    const at = new Date().toISOString()
    expect(contract.check('GET', '/items?q=x', { status: 200, body: [{ id: 1, name: 'a', at }] })).toBeNull()
    expect(contract.check('GET', '/items', { status: 200, body: [{ id: 'one', name: 'a', at }] })).toMatch(/body\/0\/id must be integer/)
    expect(contract.check('GET', '/items', { status: 200, body: [{ id: 1, name: 'a', at: 'yesterday' }] })).toMatch(/must match format "date-time"/)
    expect(contract.check('PUT', '/admin/items/7', { status: 404, body: { message: 'Not found', code: 'not_found' } })).toBeNull()
    expect(contract.check('PUT', '/admin/items/7', { status: 403, body: { error: 'no' } })).toMatch(/must have required property 'message'/)
    expect(contract.check('POST', '/items', { status: 201, body: {} })).toMatch(/no operation/)
    expect(contract.check('POST', '/items', { status: 404, body: { message: 'No route for POST /items', code: 'route_not_found' } })).toBeNull()
    expect(contract.check('GET', '/nothing', { status: 404, body: 'Not Found' })).toMatch(/must be object/)
  })
})
