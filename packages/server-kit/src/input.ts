import { AppError } from './app-error.ts'

/** Deepest nesting of objects and arrays a request body may have (real SCORM state nests under 20). */
export const MAX_INPUT_DEPTH = 64

export const UNSTORABLE_TEXT_MESSAGE = 'Text may not contain NUL characters or invalid Unicode'
const TOO_DEEP_MESSAGE = `The body nests too deeply (at most ${MAX_INPUT_DEPTH} levels)`

/** What makes parsed input unfit to store, whatever the schema says of it. */
export type InputProblem = 'unstorable_text' | 'too_deep'

const badText = (s: string) => s.includes('\0') || !s.isWellFormed()

/**
 * Checks every string and key of a parsed input, and its nesting: a NUL (PostgreSQL text and
 * jsonb cannot hold U+0000), a lone surrogate (not Unicode: jsonb refuses its `\ud800` escape,
 * text would silently store U+FFFD) or nesting deeper than `maxDepth`. Recursion stops at
 * `maxDepth`, so any input is checked without exhausting the stack.
 */
export function inputProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  if (typeof value === 'string') return badText(value) ? 'unstorable_text' : null
  if (typeof value !== 'object' || value === null) return null
  if (maxDepth <= 0) return 'too_deep'
  if (Array.isArray(value)) {
    for (const v of value) {
      const problem = inputProblem(v, maxDepth - 1)
      if (problem) return problem
    }
    return null
  }
  for (const key in value) {
    if (badText(key)) return 'unstorable_text'
    const problem = inputProblem((value as Record<string, unknown>)[key], maxDepth - 1)
    if (problem) return problem
  }
  return null
}

/** The 400 for an input problem: `invalid_text`, or `validation_failed` for the nesting. */
export const inputError = (problem: InputProblem) =>
  problem === 'too_deep' ? new AppError(400, 'validation_failed', TOO_DEEP_MESSAGE) : new AppError(400, 'invalid_text', UNSTORABLE_TEXT_MESSAGE)

/** Throws the 400 when `value` holds text that cannot be stored or nests too deeply. */
export function assertStorableInput(value: unknown): void {
  const problem = inputProblem(value)
  if (problem) throw inputError(problem)
}

/**
 * Parses a JSON request body read by hand (routes outside `validate()`, e.g. a beacon's
 * text/plain body) with the same checks `validate()` applies: 400 `invalid_json`, then
 * `invalid_text` or `validation_failed` (too deep).
 */
export function parseJsonInput(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError(400, 'invalid_json', 'The body is not valid JSON')
  }
  assertStorableInput(value)
  return value
}

/**
 * Text the service itself stores, made storable: NUL and lone surrogates become U+FFFD. For what
 * comes from files (an uploaded package's names and titles, the messages that quote them), where
 * refusing is not an option; a request's own text is refused instead (`validate()`).
 */
export const storableText = (text: string) => (text.includes('\0') ? text.replaceAll('\0', '\ufffd') : text).toWellFormed()

/** `JSON.stringify` for a jsonb column, with every string and key made storable (`storableText`). */
export const storableJson = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return storableText(v)
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.keys(v).some(badText)) return v
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableText(k), x]))
  })
