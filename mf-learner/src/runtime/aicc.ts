/**
 * The AICC-flavoured data model of learner §3 on top of the SCORM 1.2 API (scorm-again v3 has no
 * AICC): the elements SCORM 1.2 lacks live here, everything else stays with the 1.2 API. Types and
 * error codes follow scorm-again's SCORM 1.2 rules (an out-of-range score is 405 there too, as in
 * the ADL 1.2 conformance suite).
 */

export const AICC_ERRORS = {
  notInitialized: 301,
  invalidArgument: 201,
  noChildren: 202,
  noCount: 203,
  notImplemented: 401,
  keyword: 402,
  readOnly: 403,
  typeMismatch: 405,
} as const

export class AiccError extends Error {
  readonly code: number
  constructor(code: number) {
    super(`AICC error ${code}`)
    this.code = code
  }
}

/** AICC identifiers: word characters only (learner §5). */
export const AICC_IDENTIFIER = /^\w{1,255}$/
/** Delegated 1.2 elements that hold an identifier and so follow the AICC rule. */
export const AICC_IDENTIFIER_ELEMENTS = /^cmi\.(objectives\.\d+\.id|interactions\.\d+\.id|interactions\.\d+\.objectives\.\d+\.id)$/

const CMIString256 = /^[\s\S]{0,255}$/
const CMITime = /^(?:[01]\d|2[0123]):(?:[012345]\d):(?:[012345]\d)(\.\d{1,2})?$/
const CMITimespan = /^([0-9]+):([0-9]{2}):([0-9]{2})(\.\d{1,2})?$/
const CMIStatus2 = /^(passed|completed|failed|incomplete|browsed|not attempted)$/
const CMIDecimal = /^-?([0-9]{0,3})(\.[0-9]*)?$/
const CMIInteger = /^\d+$/

type Check = (value: string) => number | null
const matches =
  (re: RegExp, allowEmpty = false): Check =>
  (v) =>
    (allowEmpty && v === '') || re.test(v) ? null : AICC_ERRORS.typeMismatch
const scoreValue: Check = (v) => {
  if (v === '') return null
  if (!CMIDecimal.test(v)) return AICC_ERRORS.typeMismatch
  const n = Number(v)
  return Number.isFinite(n) && n >= 0 && n <= 100 ? null : AICC_ERRORS.typeMismatch
}

interface Leaf {
  kind: 'leaf'
  check: Check
  /** Read-only once the session is initialized (the LMS supplies it). */
  lmsOnly?: boolean
  initial?: string
}
interface Group {
  kind: 'group'
  children: Record<string, Node>
  /** Answer of `<element>._children`; absent: the element has no `_children`. */
  childrenList?: string
}
interface List {
  kind: 'list'
  item: Node
}
type Node = Leaf | Group | List

const leaf = (check: Check, opts: Omit<Leaf, 'kind' | 'check'> = {}): Leaf => ({ kind: 'leaf', check, ...opts })
const group = (children: Record<string, Node>, withChildren = true): Group => ({
  kind: 'group',
  children,
  childrenList: withChildren ? Object.keys(children).join(',') : undefined,
})
const list = (item: Node): List => ({ kind: 'list', item })

const str = leaf(matches(CMIString256, true))
const score = group({ raw: leaf(scoreValue), min: leaf(scoreValue), max: leaf(scoreValue, { initial: '100' }) })
const demographic = leaf(matches(CMIString256, true), { lmsOnly: true })

const DEMOGRAPHICS = [
  'city',
  'class',
  'company',
  'country',
  'experience',
  'familiar_name',
  'instructor_name',
  'title',
  'native_language',
  'state',
  'street_address',
  'telephone',
  'years_experience',
] as const

/** The AICC elements SCORM 1.2 lacks, as a tree under `cmi`. */
const MODEL: Group = group(
  {
    evaluation: group({
      comments: list(group({ content: str, location: str, time: leaf(matches(CMITime, true)) })),
    }),
    student_preference: group(
      {
        lesson_type: str,
        text_color: str,
        text_location: str,
        text_size: str,
        video: str,
        windows: list(str),
      },
      false,
    ),
    student_data: group(
      {
        tries_during_lesson: leaf(matches(CMIInteger, true), { lmsOnly: true }),
        tries: list(group({ time: leaf(matches(CMITime, true)), status: leaf(matches(CMIStatus2)), score })),
        attempt_records: list(group({ score, lesson_status: leaf(matches(CMIStatus2)) })),
      },
      false,
    ),
    student_demographics: group(Object.fromEntries(DEMOGRAPHICS.map((k) => [k, demographic]))),
    paths: list(
      group({
        location_id: leaf(matches(AICC_IDENTIFIER)),
        date: str,
        time: leaf(matches(CMITime, true)),
        status: leaf(matches(CMIStatus2)),
        why_left: str,
        time_in_element: leaf(matches(CMITimespan, true)),
      }),
    ),
  },
  false,
)

/** `_children` answers of the 1.2 groups the AICC model extends. */
export const AICC_CHILDREN: Record<string, string> = {
  'cmi._children': 'core,suspend_data,launch_data,comments,objectives,student_data,student_preference,interactions,evaluation,student_demographics,paths',
  'cmi.student_data._children': 'mastery_score,max_time_allowed,time_limit_action,tries_during_lesson,tries,attempt_records',
  'cmi.student_preference._children': 'audio,language,speed,text,lesson_type,text_color,text_location,text_size,video,windows',
}

const OWN =
  /^cmi\.(evaluation|student_demographics|paths|student_preference\.(lesson_type|text_color|text_location|text_size|video|windows)|student_data\.(tries_during_lesson|tries|attempt_records))(\.|$)/

type Json = string | Json[] | { [k: string]: Json }
type Obj = { [k: string]: Json }

function blank(node: Node): Json {
  if (node.kind === 'leaf') return node.initial ?? ''
  if (node.kind === 'list') return []
  return Object.fromEntries(Object.entries(node.children).map(([k, c]) => [k, blank(c)]))
}

const isIndex = (s: string) => /^\d+$/.test(s)
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The AICC extra elements of one session: values, `_children`/`_count` answers and validation. */
export class AiccModel {
  private data: Obj = blank(MODEL) as Obj

  /** True when `element` belongs to this model (the rest goes to the SCORM 1.2 API). */
  handles(element: string): boolean {
    return element in AICC_CHILDREN || OWN.test(element)
  }

  get(element: string): string {
    if (element in AICC_CHILDREN) return AICC_CHILDREN[element]
    const path = element.split('.').slice(1)
    let node: Node = MODEL
    let value: Json = this.data
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]
      const last = i === path.length - 1
      if (seg === '_children' || seg === '_count') {
        if (!last) throw new AiccError(AICC_ERRORS.invalidArgument)
        if (seg === '_count') {
          if (node.kind !== 'list') throw new AiccError(AICC_ERRORS.noCount)
          return String((value as Json[]).length)
        }
        const children = node.kind === 'group' ? node.childrenList : node.kind === 'list' && node.item.kind === 'group' ? node.item.childrenList : undefined
        if (children === undefined) throw new AiccError(AICC_ERRORS.noChildren)
        return children
      }
      if (node.kind === 'leaf') throw new AiccError(AICC_ERRORS.notImplemented)
      if (node.kind === 'list') {
        const arr = value as Json[]
        if (!isIndex(seg) || Number(seg) >= arr.length) throw new AiccError(AICC_ERRORS.invalidArgument)
        node = node.item
        value = arr[Number(seg)]
      } else {
        const child: Node | undefined = node.children[seg]
        if (!child) throw new AiccError(AICC_ERRORS.notImplemented)
        node = child
        value = (value as Obj)[seg]
      }
    }
    if (node.kind !== 'leaf') throw new AiccError(AICC_ERRORS.notImplemented)
    return value as string
  }

  /** Sets one element; `initialized` decides whether LMS-supplied elements are still writable. */
  set(element: string, value: string, initialized: boolean): void {
    const path = element.split('.').slice(1)
    const lastSeg = path[path.length - 1]
    if (lastSeg === '_children' || lastSeg === '_count' || lastSeg === '_version') throw new AiccError(AICC_ERRORS.keyword)
    let node: Node = MODEL
    let container: Obj | Json[] = { root: this.data }
    let key: string | number = 'root'
    // A new collection entry is only kept when the value is valid.
    let pending: (() => void) | null = null
    for (const seg of path) {
      const here: Json = (container as Record<string | number, Json>)[key]
      if (node.kind === 'leaf') throw new AiccError(AICC_ERRORS.notImplemented)
      if (node.kind === 'list') {
        const arr = here as Json[]
        if (!isIndex(seg) || Number(seg) > arr.length) throw new AiccError(AICC_ERRORS.invalidArgument)
        const index = Number(seg)
        node = node.item
        if (index === arr.length) {
          const fresh = blank(node)
          const holder = [fresh]
          pending = () => arr.push(holder[0])
          container = holder
          key = 0
        } else {
          container = arr
          key = index
        }
      } else {
        const child: Node | undefined = node.children[seg]
        if (!child) throw new AiccError(AICC_ERRORS.notImplemented)
        node = child
        container = here as Obj
        key = seg
      }
    }
    if (node.kind !== 'leaf') throw new AiccError(AICC_ERRORS.notImplemented)
    if (node.lmsOnly && initialized) throw new AiccError(AICC_ERRORS.readOnly)
    const error = node.check(value)
    if (error !== null) throw new AiccError(error)
    ;(container as Record<string | number, Json>)[key] = value
    pending?.()
  }

  /** The AICC elements as a cmi fragment (arrays as JSON arrays), to merge into the commit's cmi. */
  toJSON(): Obj {
    return structuredClone(this.data)
  }

  /**
   * Loads stored AICC elements (before Initialize) and returns the stored cmi without them, for
   * the SCORM 1.2 API to load. Invalid stored values are skipped.
   */
  loadFrom(cmi: Record<string, unknown>): Record<string, unknown> {
    const rest: Record<string, unknown> = { ...cmi }
    for (const top of ['evaluation', 'student_demographics', 'paths'] as const) {
      if (top in rest) {
        this.loadValue(`cmi.${top}`, rest[top])
        delete rest[top]
      }
    }
    for (const [groupName, extras] of [
      ['student_preference', ['lesson_type', 'text_color', 'text_location', 'text_size', 'video', 'windows']],
      ['student_data', ['tries_during_lesson', 'tries', 'attempt_records']],
    ] as const) {
      const g = rest[groupName]
      if (!isObj(g)) continue
      const kept: Record<string, unknown> = { ...g }
      for (const k of extras) {
        if (k in kept) {
          this.loadValue(`cmi.${groupName}.${k}`, kept[k])
          delete kept[k]
        }
      }
      rest[groupName] = kept
    }
    return rest
  }

  private loadValue(element: string, value: unknown): void {
    if (typeof value === 'string' || typeof value === 'number') {
      try {
        this.set(element, String(value), false)
      } catch {
        // a stored value the model no longer accepts is dropped
      }
      return
    }
    // Arrays may have been stored as arrays or as {"0": ..., "1": ...}.
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : isObj(value)
        ? Object.entries(value).sort(([a], [b]) => (isIndex(a) && isIndex(b) ? Number(a) - Number(b) : a.localeCompare(b)))
        : []
    for (const [k, v] of entries) this.loadValue(`${element}.${k}`, v)
  }
}
