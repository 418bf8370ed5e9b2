import type { ScormInteraction } from '@portal/contracts'

/**
 * The summary columns of `scorm_states` drawn from a commit's `runtimeData` (the cmi tree as
 * scorm-again renders it). scorm-again's `json` commit format is `{cmi: {...}}` with collections
 * (`interactions`, `objectives`, `correct_responses`) rendered as objects keyed "0", "1", ...;
 * its `flattened` format is `{"cmi.core.lesson_status": ...}`. Both are read here, as is a bare
 * cmi tree without the `cmi` wrapper and collections sent as arrays.
 */
export interface ScormSummary {
  /** 1.2 lesson_status; 2004: passed/failed from success_status, else the completion_status. */
  lessonStatus: string
  score: number | null
  location: string
  suspendData: string
  /** Null when the commit carries no total time (scorm-again 2004 sends it only at Terminate). */
  totalTime: string | null
  sessionTime: string
  exit: string
  interactions: ScormInteraction[]
  /** The content reports the SCO complete: 1.2 completed/passed, 2004 completed or passed. */
  complete: boolean
  /** '1.2' when the tree has `cmi.core` (1.2 and AICC), '2004' otherwise. */
  model: '1.2' | '2004'
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Turns `{"cmi.core.lesson_status": "x"}` into `{cmi: {core: {lesson_status: "x"}}}`. */
function unflatten(flat: Obj): Obj {
  const out: Obj = {}
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.')
    if (parts.some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype')) continue
    let node = out
    for (const part of parts.slice(0, -1)) {
      if (!isObj(node[part])) node[part] = {}
      node = node[part] as Obj
    }
    node[parts[parts.length - 1]!] = value
  }
  return out
}

/** The cmi tree of `runtimeData` in whichever shape it came. */
export function cmiRoot(runtimeData: Obj): Obj {
  if (isObj(runtimeData.cmi)) return runtimeData.cmi
  if (Object.keys(runtimeData).some((k) => k.startsWith('cmi.'))) {
    const tree = unflatten(runtimeData)
    return isObj(tree.cmi) ? tree.cmi : {}
  }
  return runtimeData
}

/** Where a commit without `total_time` would have carried it (2004: `cmi.total_time`). */
export function totalTimePath(runtimeData: Obj): string[] {
  if (isObj(runtimeData.cmi)) return ['cmi', 'total_time']
  if (Object.keys(runtimeData).some((k) => k.startsWith('cmi.'))) return ['cmi.total_time']
  return ['total_time']
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '')
const num = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v)
    return Number.isFinite(n) ? n : null
  }
  return null
}

/** A collection as a list: arrays as they are, `{"0": .., "1": ..}` in index order, `{childArray}`. */
function list(v: unknown): unknown[] {
  if (Array.isArray(v)) return v
  if (!isObj(v)) return []
  if (Array.isArray(v.childArray)) return v.childArray
  return Object.keys(v)
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => v[k])
}

function interaction(raw: unknown): ScormInteraction | null {
  if (!isObj(raw)) return null
  const id = text(raw.id)
  if (!id) return null
  const out: ScormInteraction = { id: id.slice(0, 4000) }
  const type = text(raw.type)
  if (type) out.type = type.slice(0, 100)
  const timestamp = text(raw.timestamp) || text(raw.time)
  if (timestamp) out.timestamp = timestamp.slice(0, 100)
  const result = text(raw.result)
  if (result) out.result = result.slice(0, 1000)
  const latency = text(raw.latency)
  if (latency) out.latency = latency.slice(0, 100)
  const response = text(raw.student_response) || text(raw.learner_response)
  if (response) out.student_response = response.slice(0, 64_000)
  const correct = list(raw.correct_responses)
    .map((c) => (isObj(c) ? text(c.pattern) : text(c)))
    .filter((c) => c !== '')
  if (correct.length) out.correct_responses = correct.slice(0, 1000).map((c) => c.slice(0, 64_000))
  return out
}

/** Reads the summary of one SCO's state from a commit's runtime data. */
export function summarize(runtimeData: Obj, hints: { successStatus?: string; completionStatus?: string } = {}): ScormSummary {
  const cmi = cmiRoot(runtimeData)
  const interactions = list(cmi.interactions)
    .map(interaction)
    .filter((i): i is ScormInteraction => i !== null)
    .slice(0, 1000)
  if (isObj(cmi.core)) {
    const core = cmi.core
    const score = isObj(core.score) ? num(core.score.raw) : null
    const lessonStatus = text(core.lesson_status) || 'not attempted'
    return {
      model: '1.2',
      lessonStatus,
      score,
      location: text(core.lesson_location),
      suspendData: text(cmi.suspend_data),
      totalTime: text(core.total_time) || null,
      sessionTime: text(core.session_time) || '0000:00:00',
      exit: text(core.exit),
      interactions,
      complete: lessonStatus === 'completed' || lessonStatus === 'passed',
    }
  }
  const completion = text(cmi.completion_status) || hints.completionStatus || ''
  const success = text(cmi.success_status) || hints.successStatus || ''
  const lessonStatus =
    success === 'passed' || success === 'failed' ? success : completion && completion !== 'unknown' ? completion : completion || 'not attempted'
  let score: number | null = null
  if (isObj(cmi.score)) {
    score = num(cmi.score.raw)
    if (score === null) {
      const scaled = num(cmi.score.scaled)
      if (scaled !== null) score = Math.round(scaled * 10_000) / 100
    }
  }
  return {
    model: '2004',
    lessonStatus,
    score,
    location: text(cmi.location),
    suspendData: text(cmi.suspend_data),
    totalTime: text(cmi.total_time) || null,
    sessionTime: text(cmi.session_time) || 'PT0S',
    exit: text(cmi.exit),
    interactions,
    complete: completion === 'completed' || success === 'passed',
  }
}

/** The adl.data stores a commit writes: its `adlData`, else the `adl.data` collection of its runtime data. */
export function sharedStores(commit: { adlData?: { id: string; store: string }[]; runtimeData: Obj }): { id: string; store: string }[] {
  const out = new Map<string, string>()
  const adl = commit.runtimeData.adl
  if (isObj(adl)) {
    for (const s of list(adl.data)) if (isObj(s) && text(s.id) && typeof s.store === 'string') out.set(text(s.id).slice(0, 4000), s.store.slice(0, 64_000))
  }
  for (const s of commit.adlData ?? []) out.set(s.id, s.store)
  return [...out].map(([id, store]) => ({ id, store })).slice(0, 100)
}
