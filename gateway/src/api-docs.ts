import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { Hono } from 'hono'
import { compress } from 'hono/compress'
import type { AppEnv } from '@portal/server-kit'
import { sendFile } from '@portal/static-server'
import type { Upstream } from './routes.ts'

/** The services whose OpenAPI documents the explorer lists, each at `/api/<service>/openapi.json` (routes.ts). */
export const API_DOCUMENTS: readonly { service: Upstream; url: string }[] = (['identity', 'learning', 'certs', 'notify'] as const).map((service) => ({
  service,
  url: `/api/${service}/openapi.json`,
}))

/** Swagger UI's files, served from the installed package: the explorer needs nothing from outside the portal. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'swagger-ui.css',
  'swagger-ui-bundle.js': 'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js': 'swagger-ui-standalone-preset.js',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Portal APIs</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`

/**
 * Swagger UI's start: the four services' documents in its "Select a definition" list. A script
 * file, not inline, so the page keeps the portal's CSP (`script-src 'self'`); no validator badge
 * (Swagger UI would send the document to its public validator).
 */
const INIT = `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(API_DOCUMENTS.map((d) => ({ name: d.service, url: d.url })))},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
})
`

/** `/api/docs`: the API explorer (Swagger UI) over the services' OpenAPI documents. */
export const apiDocsRoutes = () =>
  new Hono<AppEnv>()
    .use(compress())
    .get('/', (c) => c.html(PAGE, 200, { 'cache-control': 'no-cache' }))
    .get('/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }))
    .get('/:file{[a-z-]+\\.(?:js|css)}', async (c, next) => {
      const file = ASSETS[c.req.param('file')]
      if (!file) return next()
      return (await sendFile(c, join(SWAGGER_UI_DIR, file), 'public, max-age=3600')) ?? next()
    })
