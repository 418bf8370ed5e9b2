import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { OpenAPIV3_1 } from 'openapi-types'
import { PLATFORM_PATHS, type OpenApiDocument } from './openapi.ts'

type Operation = OpenAPIV3_1.OperationObject

/** A documented path template as a matcher of request paths; literal segments rank above parameters. */
function templateMatcher(template: string) {
  const segments = template.split('/')
  const pattern = new RegExp(`^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}/?$`)
  return { template, pattern, literals: segments.filter((s) => !s.startsWith('{')).length }
}

/**
 * Checks real responses against a service's OpenAPI document (a contract test): the operation
 * for the request's method and path, the response for its status (or the document's `4XX`/
 * `default`), and the JSON body against that response's schema with a JSON Schema 2020-12
 * validator (OpenAPI 3.1's dialect). `check` answers what is wrong, or null.
 */
export function contractChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  addFormats.default(ajv)
  // The document's components as one schema, so `#/components/schemas/X` resolves from any response schema.
  ajv.addSchema({ $id: 'openapi.json', components: document.components ?? {} })
  const matchers = Object.keys(document.paths ?? {})
    .map(templateMatcher)
    .sort((a, b) => b.literals - a.literals)
  const compiled = new Map<object, ValidateFunction>()
  const compile = (schema: object) => {
    let fn = compiled.get(schema)
    if (!fn) {
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object
      fn = ajv.compile(rebased)
      compiled.set(schema, fn)
    }
    return fn
  }

  /** The operation a request reaches, with its path template. */
  const operation = (method: string, path: string): { template: string; op: Operation } | undefined => {
    const bare = path.split('?')[0]!
    for (const m of matchers) {
      if (!m.pattern.test(bare)) continue
      const op = (document.paths?.[m.template] as Record<string, Operation> | undefined)?.[method.toLowerCase()]
      if (op) return { template: m.template, op }
    }
    return undefined
  }

  const check = (method: string, path: string, res: { status: number; body: unknown; headers?: Headers }): string | null => {
    // The probes, metrics and the document itself are the platform's, outside the API.
    if (PLATFORM_PATHS.includes(path.split('?')[0]!)) return null
    const found = operation(method, path)
    if (!found) {
      // A path no route serves: the 404 in the error shape (`route_not_found`) is the one answer.
      if (res.status === 404 && document.components?.schemas?.Error) {
        const validate = compile({ $ref: '#/components/schemas/Error' })
        return validate(res.body) ? null : `${method} ${path} 404: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`
      }
      return `${method} ${path}: no operation in the document`
    }
    const responses = found.op.responses ?? {}
    const response = (responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default) as OpenAPIV3_1.ResponseObject | undefined
    if (!response) return `${method} ${found.template}: status ${res.status} is not documented`
    const type = (res.headers?.get('content-type') ?? (typeof res.body === 'string' ? '' : 'application/json')).split(';')[0]!.trim()
    const content = response.content
    if (!content || Object.keys(content).length === 0)
      return res.body === null || res.body === '' || res.body === undefined ? null : `${method} ${found.template} ${res.status}: a body where none is documented`
    const media = content[type] ?? (type === '' ? Object.values(content)[0] : undefined)
    if (!media) return `${method} ${found.template} ${res.status}: ${type || 'no content type'} is not among ${Object.keys(content).join(', ')}`
    if (!type.includes('json') || !media.schema) return null
    const validate = compile(media.schema)
    if (validate(res.body)) return null
    return `${method} ${found.template} ${res.status}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`
  }

  return {
    check,
    /** Throws when the response does not fit the document (for a test: `contract.assert('GET', '/x', res)`). */
    assert(method: string, path: string, res: { status: number; body: unknown; headers?: Headers }): void {
      const problem = check(method, path, res)
      if (problem) throw new Error(`Response does not fit the OpenAPI document: ${problem}`)
    },
    operation,
  }
}
export type ContractChecker = ReturnType<typeof contractChecker>
