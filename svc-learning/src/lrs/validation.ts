import xapiValidation from '@learninglocker/xapi-validation'
import { badRequest } from '@portal/server-kit'
import type { XapiStatement } from './types.ts'

interface Warning {
  name?: string
  path?: string[]
  typeName?: string
  keys?: string[]
}

/** A readable line for one of the library's warnings (its own message is always "Validation Error"). */
function describe(w: Warning): string {
  const where = (w.path ?? ['statement']).join('.')
  const kind = w.name ?? 'Warning'
  if (kind === 'TypeWarning') return `${where} is not a valid ${w.typeName ?? 'value'}`
  if (kind === 'RequiredWarning') return `${where} is required`
  if (kind === 'RestrictedKeysWarning') return `${where} has properties xAPI does not define${w.keys?.length ? ` (${w.keys.join(', ')})` : ''}`
  if (kind === 'IfiCountWarning') return `${where} must have exactly one identifier (mbox, mbox_sha1sum, openid or account)`
  return `${where} breaks the xAPI rule ${kind.replace(/Warning$/, '')}`
}

/**
 * The library's rule check. It is CommonJS with `exports.default`: Node's own ESM loader (the
 * service) hands the exports object, Vite's interop (the tests) the function itself.
 */
const validateXapi = ((xapiValidation as unknown as { default?: unknown }).default ?? xapiValidation) as (data: unknown) => Warning[]

const CONTEXT_ACTIVITY_KEYS = ['parent', 'grouping', 'category', 'other'] as const

/** xAPI lets a context activity list be one object; the LRS stores (and answers) arrays. */
function normalize(raw: Record<string, unknown>): void {
  const normalizeContext = (context: unknown) => {
    const ca = (context as { contextActivities?: Record<string, unknown> } | undefined)?.contextActivities
    if (!ca || typeof ca !== 'object') return
    for (const k of CONTEXT_ACTIVITY_KEYS) if (ca[k] && typeof ca[k] === 'object' && !Array.isArray(ca[k])) ca[k] = [ca[k]]
  }
  normalizeContext(raw.context)
  const object = raw.object as { objectType?: unknown; context?: unknown } | undefined
  if (object?.objectType === 'SubStatement') normalizeContext(object.context)
}

/**
 * Checks one statement with Learning Locker's xAPI 1.0.3 rules and completes it: `id` (a new
 * uuid) and `timestamp` (`now`) when absent. Throws 400 `invalid_statement` with the rules it
 * breaks (`index` names it within a batch).
 */
export function checkStatement(raw: unknown, now: Date, index?: number): XapiStatement {
  const at = index === undefined ? '' : `Statement ${index}: `
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`${at}a statement must be a JSON object`, 'invalid_statement')
  const s = raw as Record<string, unknown>
  normalize(s)
  const warnings = validateXapi(s)
  if (warnings.length > 0) {
    throw badRequest(`${at}${warnings.slice(0, 5).map(describe).join('; ')}`, 'invalid_statement', {
      details: warnings.map((w) => ({ path: (w.path ?? []).join('.'), message: describe(w) })),
    })
  }
  s.id ??= crypto.randomUUID()
  s.timestamp ??= now.toISOString()
  return s as unknown as XapiStatement
}
