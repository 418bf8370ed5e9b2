import { SCORM_LIMITS, type ScormInteraction, type ScormItem } from '@portal/contracts'
import { reportsComplete12, reportsComplete2004 } from './sco-complete.ts'

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
  if (response) out.student_response = response.slice(0, SCORM_LIMITS.text)
  const correct = list(raw.correct_responses)
    .map((c) => (isObj(c) ? text(c.pattern) : text(c)))
    .filter((c) => c !== '')
  if (correct.length) out.correct_responses = correct.slice(0, 1000).map((c) => c.slice(0, SCORM_LIMITS.text))
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
      complete: reportsComplete12(lessonStatus),
    }
  }
  const completion = text(cmi.completion_status) || hints.completionStatus || ''
  const success = text(cmi.success_status) || hints.successStatus || ''
  const lessonStatus = success === 'passed' || success === 'failed' ? success : completion && completion !== 'unknown' ? completion : completion || 'not attempted'
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
    complete: reportsComplete2004(completion, success),
  }
}

/** The adl.data stores a commit writes: its `adlData`, else the `adl.data` collection of its runtime data. */
export function sharedStores(commit: { adlData?: { id: string; store: string }[]; runtimeData: Obj }): { id: string; store: string }[] {
  const out = new Map<string, string>()
  const adl = commit.runtimeData.adl
  if (isObj(adl)) {
    for (const s of list(adl.data)) if (isObj(s) && text(s.id) && typeof s.store === 'string') out.set(text(s.id).slice(0, 4000), s.store.slice(0, SCORM_LIMITS.text))
  }
  for (const s of commit.adlData ?? []) out.set(s.id, s.store)
  return [...out].map(([id, store]) => ({ id, store })).slice(0, 100)
}

/** The spec's progress record (POST /scorm/progress `scormData`), every field optional. */
export interface ProgressRecord {
  lessonStatus?: string
  score?: number | null
  location?: string
  suspendData?: string
  totalTime?: string
  sessionTime?: string
  interactions?: ScormInteraction[]
}

const SUCCESS_2004 = new Set(['passed', 'failed'])
const COMPLETION_2004 = new Set(['completed', 'incomplete', 'not attempted', 'unknown'])
const STATUSES_12 = ['passed', 'completed', 'failed', 'incomplete', 'browsed', 'not attempted']

/**
 * Why suspend data is too long to keep (`SCORM_LIMITS.suspendData`, in 1.2 and 2004 alike, as the
 * runtime has it), or null. `field`: what the caller named it.
 */
export function suspendDataProblem(suspendData: string, field: string): string | null {
  return suspendData.length > SCORM_LIMITS.suspendData ? `${field} may hold at most ${SCORM_LIMITS.suspendData} characters` : null
}

/** Why a record cannot be written into a SCO of `model` (a value its data model refuses), or null. */
export function progressRecordProblem(model: '1.2' | '2004', record: ProgressRecord): string | null {
  if (record.suspendData !== undefined) {
    const problem = suspendDataProblem(record.suspendData, 'suspendData')
    if (problem) return problem
  }
  const status = record.lessonStatus
  if (status !== undefined) {
    if (model === '1.2' && !STATUSES_12.includes(status)) return `lessonStatus must be one of: ${STATUSES_12.join(', ')}`
    if (model === '2004' && !SUCCESS_2004.has(status) && !COMPLETION_2004.has(status)) return `lessonStatus must be one of: ${[...SUCCESS_2004, ...COMPLETION_2004].join(', ')}`
  }
  if (model === '1.2' && record.score != null && (record.score < 0 || record.score > 100)) return 'score must be between 0 and 100'
  return null
}

/** `0001:02:03.5` (the record's 1.2 timespan) as an ISO 8601 duration for 2004 (`PT1H2M3.5S`); other text as it is. */
export function timespanTo2004(value: string): string {
  const m = /^(\d{2,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(value)
  if (!m) return value
  return `PT${Number(m[1])}H${Number(m[2])}M${Number(m[3])}S`
}

const DURATION = /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/
// Learner §9: a year counts as 31,536,000 s; a month as 30 days.
const DURATION_UNITS = [31_536_000, 2_592_000, 604_800, 86_400, 3_600, 60, 1]

/** A 2004 ISO 8601 duration (`PT1H2M3.5S`) in the record's format (`0001:02:03.5`); other text as it is. */
export function durationToTimespan(value: string): string {
  const m = DURATION.exec(value)
  if (!m || value === 'P' || value.endsWith('T')) return value
  const total = Math.round(DURATION_UNITS.reduce((sum, unit, i) => sum + Number(m[i + 1] ?? 0) * unit, 0) * 100) / 100
  const whole = Math.floor(total)
  const hundredths = Math.round((total - whole) * 100)
  const pad = (n: number, w: number) => String(n).padStart(w, '0')
  const hours = Math.min(Math.floor(whole / 3600), 9999)
  return `${pad(hours, 4)}:${pad(Math.floor((whole % 3600) / 60), 2)}:${pad(whole % 60, 2)}${hundredths ? `.${pad(hundredths, 2)}` : ''}`
}

/** A collection as scorm-again renders it in a JSON commit: an object keyed "0", "1", ... */
const collection = <T>(items: T[]): Obj => Object.fromEntries(items.map((item, i) => [String(i), item]))

/**
 * Writes the spec's progress record into a stored runtime tree (a copy; the stored one is not
 * changed), in the SCO's data model: the cmi tree stays the one place a SCO's state lives, so a
 * record saved this way is also what the runtime resumes with. The status never goes back from
 * completed/passed.
 */
export function applyProgressRecord(runtimeData: Obj, model: '1.2' | '2004', record: ProgressRecord): Obj {
  const flattened = !isObj(runtimeData.cmi) && Object.keys(runtimeData).some((k) => k.startsWith('cmi.'))
  const tree: Obj = structuredClone(flattened ? unflatten(runtimeData) : isObj(runtimeData.cmi) ? runtimeData : { cmi: runtimeData })
  const cmi = tree.cmi as Obj
  const keepStatus = summarize(tree).complete && record.lessonStatus !== undefined && !reportsComplete12(record.lessonStatus)
  const status = keepStatus ? undefined : record.lessonStatus
  const interactions = record.interactions?.map((i) => {
    const out: Obj = { id: i.id }
    if (i.type !== undefined) out.type = i.type
    if (i.timestamp !== undefined) out[model === '1.2' ? 'time' : 'timestamp'] = i.timestamp
    if (i.result !== undefined) out.result = i.result
    if (i.latency !== undefined) out.latency = model === '1.2' ? i.latency : timespanTo2004(i.latency)
    if (i.student_response !== undefined) out[model === '1.2' ? 'student_response' : 'learner_response'] = i.student_response
    if (i.correct_responses) out.correct_responses = collection(i.correct_responses.map((pattern) => ({ pattern })))
    return out
  })
  if (record.suspendData !== undefined) cmi.suspend_data = record.suspendData
  if (interactions) cmi.interactions = collection(interactions)
  if (model === '1.2') {
    const core: Obj = isObj(cmi.core) ? cmi.core : (cmi.core = {})
    if (status !== undefined) core.lesson_status = status
    if (record.score !== undefined) core.score = { ...(isObj(core.score) ? core.score : {}), raw: record.score === null ? '' : String(record.score) }
    if (record.location !== undefined) core.lesson_location = record.location
    if (record.totalTime !== undefined) core.total_time = record.totalTime
    if (record.sessionTime !== undefined) core.session_time = record.sessionTime
    return tree
  }
  if (status !== undefined && SUCCESS_2004.has(status)) cmi.success_status = status
  else if (status !== undefined && COMPLETION_2004.has(status)) cmi.completion_status = status
  if (record.score !== undefined) cmi.score = { ...(isObj(cmi.score) ? cmi.score : {}), raw: record.score === null ? '' : String(record.score) }
  if (record.location !== undefined) cmi.location = record.location
  if (record.totalTime !== undefined) cmi.total_time = timespanTo2004(record.totalTime)
  if (record.sessionTime !== undefined) cmi.session_time = timespanTo2004(record.sessionTime)
  return tree
}

/** The completion threshold the runtime applies to an item (2004; a 4th edition one only when it completes by measure), or null. */
export function completionThresholdOf(item: Pick<ScormItem, 'completion_threshold' | 'completion'>): number | null {
  if (item.completion_threshold === null || item.completion?.completedByMeasure === false) return null
  return item.completion_threshold
}

/**
 * SCORM 2004 RTE 4.2.4.1: with a completion threshold (from the manifest, not from the commit) and
 * a progress measure, the measure decides the completion status — `completed` at or above the
 * threshold, `incomplete` below it — whatever the content set. Other commits are returned as
 * they are; a corrected one is a copy with the status rewritten in the tree.
 */
export function applyCompletionThreshold(runtimeData: Obj, item: Pick<ScormItem, 'completion_threshold' | 'completion'>): Obj {
  const threshold = completionThresholdOf(item)
  if (threshold === null) return runtimeData
  const cmi = cmiRoot(runtimeData)
  if (isObj(cmi.core)) return runtimeData
  const measure = num(cmi.progress_measure)
  if (measure === null) return runtimeData
  const status = measure >= threshold ? 'completed' : 'incomplete'
  if (cmi.completion_status === status) return runtimeData
  if (isObj(runtimeData.cmi)) return { ...runtimeData, cmi: { ...runtimeData.cmi, completion_status: status } }
  if ('cmi.completion_status' in runtimeData || 'cmi.progress_measure' in runtimeData) return { ...runtimeData, 'cmi.completion_status': status }
  return { ...runtimeData, completion_status: status }
}
