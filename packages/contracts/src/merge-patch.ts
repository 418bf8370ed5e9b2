/*
 * JSON merge patches (RFC 7396) of a SCO's cmi tree: the content player sends a final commit too
 * large for a beacon as the patch from the state the server acknowledged, and learning applies it
 * to that state.
 */

type Json = unknown
type JsonObject = Record<string, Json>

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)

const sameJson = (a: Json, b: Json): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) return a.length === (b as Json[]).length && a.every((v, i) => sameJson(v, (b as Json[])[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]))
}

/**
 * The merge patch that turns `from` into `to` (both JSON objects): changed members with their new
 * value (objects patched member by member, arrays whole), removed members as null. `{}` when equal.
 * Values are JSON: a null in `to` cannot be told apart from a removal (cmi trees hold none).
 */
export function mergePatchOf(from: JsonObject, to: JsonObject): JsonObject {
  const entries: [string, Json][] = []
  for (const [k, v] of Object.entries(to)) {
    if (!Object.hasOwn(from, k)) entries.push([k, v])
    else if (isObject(v) && isObject(from[k])) {
      const inner = mergePatchOf(from[k] as JsonObject, v)
      if (Object.keys(inner).length > 0) entries.push([k, inner])
    } else if (!sameJson(from[k], v)) entries.push([k, v])
  }
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) entries.push([k, null])
  // fromEntries defines own members: a "__proto__" key stays data, never a prototype
  return Object.fromEntries(entries)
}

/** `target` with the merge patch `patch` applied (RFC 7396); neither argument is changed. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch
  const base = isObject(target) ? target : {}
  const out = new Map<string, Json>(Object.entries(base))
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) out.delete(k)
    else out.set(k, applyMergePatch(out.get(k), v))
  }
  return Object.fromEntries(out)
}
