/**
 * Captivate project data (admin spec §3 "Package project data"): reading and rewriting the two
 * files a Captivate export keeps its timeline in, `project.txt` (JSON) and `assets/js/project.js`
 * (`cp.D = cp.model.data = {...}`, a JavaScript object literal). Pure and dependency-free: the
 * pre-upload editor runs it in a browser worker, the timing editor in svc-learning.
 *
 * Both files are parsed into value trees that remember where every value sits in the text, and
 * edits replace only those spans: everything else (formatting, comments, key order, values this
 * module does not know) stays byte for byte. Every rewrite is parsed again and checked before it
 * is handed back, so a file that could not be read back is never produced.
 */

/** Frames per second of Captivate timelines (admin spec §9). */
export const CAPTIVATE_FRAME_RATE = 30
/** A slide longer than this is flagged "Likely Problem Slide" (admin spec §9). */
export const LIKELY_PROBLEM_SLIDE_SECONDS = 1800

/** Where the two files sit in a package, relative to the folder of the launch page. */
export const CAPTIVATE_FILES = { projectTxt: 'project.txt', projectJs: 'assets/js/project.js' } as const

/**
 * Where the project files of a package sit among its file paths: the shallowest project.js, and
 * the project.txt beside its folder (else the shallowest one). Null for a file it does not have.
 */
export function projectFilePaths(paths: readonly string[]): { projectTxt: string | null; projectJs: string | null } {
  const depth = (p: string) => p.split('/').length
  const shallowest = (suffix: string) => paths.filter((p) => p === suffix || p.endsWith(`/${suffix}`)).sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))[0] ?? null
  const js = shallowest(CAPTIVATE_FILES.projectJs)
  const root = js === null ? null : js.slice(0, js.length - CAPTIVATE_FILES.projectJs.length)
  const besideJs = root === null ? null : `${root}${CAPTIVATE_FILES.projectTxt}`
  return { projectTxt: besideJs !== null && paths.includes(besideJs) ? besideJs : shallowest(CAPTIVATE_FILES.projectTxt), projectJs: js }
}

/** The folder of the package the project data sits in ('' at the root, else ending in '/'). */
export const projectRoot = (paths: { projectTxt: string | null; projectJs: string | null }) =>
  paths.projectJs !== null
    ? paths.projectJs.slice(0, paths.projectJs.length - CAPTIVATE_FILES.projectJs.length)
    : paths.projectTxt !== null
      ? paths.projectTxt.slice(0, paths.projectTxt.length - CAPTIVATE_FILES.projectTxt.length)
      : ''

export const CAPTIVATE_MESSAGES = {
  unreadable: 'Could not find or parse project configuration files',
  unknownSlide: 'Slide not found in the project configuration',
  badDuration: 'Enter the duration as MM:SS or HH:MM:SS',
  badPreUploadDuration: 'Enter the duration as HH:MM:SS',
  tooShort: 'The new duration is shorter than the content that starts on this slide',
  emptyName: 'The slide name cannot be empty',
  nothingToChange: 'Give a new duration or a new name',
} as const

/** A refusal with the message the admin reads. */
export type CaptivateErrorCode = 'unreadable' | 'unknown_slide' | 'bad_duration' | 'too_short' | 'empty_name' | 'nothing_to_change'
export class CaptivateError extends Error {
  readonly code: CaptivateErrorCode
  constructor(message: string, code: CaptivateErrorCode) {
    super(message)
    this.name = 'CaptivateError'
    this.code = code
  }
}

const unreadable = () => new CaptivateError(CAPTIVATE_MESSAGES.unreadable, 'unreadable')

// ---------------------------------------------------------------------------------------------
// A tolerant reader of JSON and JavaScript object literals that keeps every value's span.

type Span = { start: number; end: number }
export type Value =
  | (Span & { kind: 'object'; entries: { key: string; value: Value }[] })
  | (Span & { kind: 'array'; items: Value[] })
  | (Span & { kind: 'string'; value: string; quote: '"' | "'" })
  | (Span & { kind: 'number'; value: number })
  | (Span & { kind: 'other'; raw: string })

class Reader {
  readonly text: string
  pos: number
  constructor(text: string, start = 0) {
    this.text = text
    this.pos = start
  }

  fail(): never {
    throw unreadable()
  }

  /** Skips white space and comments. */
  skip() {
    const t = this.text
    for (;;) {
      const c = t[this.pos]
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\ufeff') this.pos++
      else if (c === '/' && t[this.pos + 1] === '/') {
        const nl = t.indexOf('\n', this.pos)
        this.pos = nl < 0 ? t.length : nl + 1
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2)
        if (close < 0) this.fail()
        this.pos = close + 2
      } else return
    }
  }

  value(depth = 0): Value {
    if (depth > 64) this.fail()
    this.skip()
    const start = this.pos
    const c = this.text[this.pos]
    if (c === '{') return this.object(depth)
    if (c === '[') return this.array(depth)
    if (c === '"' || c === "'") {
      const value = this.string()
      return { kind: 'string', value, quote: c, start, end: this.pos }
    }
    const num = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 40))
    if (num && !/[\w$]/.test(this.text[this.pos + num[0].length] ?? '')) {
      this.pos += num[0].length
      return { kind: 'number', value: Number(num[0]), start, end: this.pos }
    }
    // Anything else (true, null, identifiers, expressions): kept as it is, up to the next , } or ]
    // at this nesting level.
    let level = 0
    while (this.pos < this.text.length) {
      const d = this.text[this.pos]!
      if (d === '"' || d === "'") {
        this.string()
        continue
      }
      if (d === '(' || d === '[' || d === '{') level++
      else if (d === ')' || d === ']' || d === '}') {
        if (level === 0) break
        level--
      } else if (d === ',' && level === 0) break
      this.pos++
    }
    const raw = this.text.slice(start, this.pos).trimEnd()
    if (!raw) this.fail()
    return { kind: 'other', raw, start, end: start + raw.length }
  }

  string(): string {
    const t = this.text
    const quote = t[this.pos]
    let out = ''
    this.pos++
    for (;;) {
      const c = t[this.pos]
      if (c === undefined || c === '\n') this.fail()
      this.pos++
      if (c === quote) return out
      if (c !== '\\') {
        out += c
        continue
      }
      const e = t[this.pos++]
      if (e === undefined) this.fail()
      if (e === 'n') out += '\n'
      else if (e === 't') out += '\t'
      else if (e === 'r') out += '\r'
      else if (e === 'b') out += '\b'
      else if (e === 'f') out += '\f'
      else if (e === 'u') {
        const hex = t.slice(this.pos, this.pos + 4)
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail()
        out += String.fromCharCode(parseInt(hex, 16))
        this.pos += 4
      } else if (e === '\n') {
        // a line continuation
      } else out += e
    }
  }

  key(): string {
    this.skip()
    const c = this.text[this.pos]
    if (c === '"' || c === "'") return this.string()
    const m = /^[\w$]+/.exec(this.text.slice(this.pos, this.pos + 256))
    if (!m) this.fail()
    this.pos += m[0].length
    return m[0]
  }

  object(depth: number): Value {
    const start = this.pos++
    const entries: { key: string; value: Value }[] = []
    for (;;) {
      this.skip()
      if (this.text[this.pos] === '}') break
      const key = this.key()
      this.skip()
      if (this.text[this.pos] !== ':') this.fail()
      this.pos++
      entries.push({ key, value: this.value(depth + 1) })
      this.skip()
      if (this.text[this.pos] === ',') this.pos++
      else if (this.text[this.pos] !== '}') this.fail()
    }
    this.pos++
    return { kind: 'object', entries, start, end: this.pos }
  }

  array(depth: number): Value {
    const start = this.pos++
    const items: Value[] = []
    for (;;) {
      this.skip()
      if (this.text[this.pos] === ']') break
      items.push(this.value(depth + 1))
      this.skip()
      if (this.text[this.pos] === ',') this.pos++
      else if (this.text[this.pos] !== ']') this.fail()
    }
    this.pos++
    return { kind: 'array', items, start, end: this.pos }
  }
}

const field = (v: Value | undefined, key: string): Value | undefined => (v?.kind === 'object' ? v.entries.find((e) => e.key === key)?.value : undefined)
const num = (v: Value | undefined): number | undefined => (v?.kind === 'number' && Number.isFinite(v.value) ? v.value : undefined)
const str = (v: Value | undefined): string | undefined => (v?.kind === 'string' ? v.value : undefined)

// ---------------------------------------------------------------------------------------------
// The project model.

export interface CaptivateVideo {
  id: string
  src: string
  durationInFrames: number
}

export interface CaptivateSlide {
  id: string
  name: string
  title: string
  /** First and last frame (frames are numbered from 1). */
  from: number
  to: number
  durationInFrames: number
  video: CaptivateVideo | null
}

export interface CaptivateProject {
  title: string
  frameRate: number
  durationInFrames: number
  slides: CaptivateSlide[]
}

/** The two files' texts; a file the package does not have is null. */
export interface CaptivateFiles {
  projectTxt: string | null
  projectJs: string | null
}

interface TxtModel {
  root: Value
  slides: Map<string, Value>
  order: string[]
}

interface JsModel {
  data: Value
  order: string[]
}

function readTxt(text: string): TxtModel {
  const r = new Reader(text)
  const root = r.value()
  r.skip()
  if (r.pos !== text.length || root.kind !== 'object') throw unreadable()
  const list = field(field(root, 'contentStructure'), 'slides')
  if (list?.kind !== 'array' || list.items.length === 0) throw unreadable()
  const slides = new Map<string, Value>()
  for (const s of list.items) {
    const id = str(field(s, 'id'))
    if (!id || num(field(s, 'from')) === undefined || num(field(s, 'to')) === undefined) throw unreadable()
    slides.set(id, s)
  }
  return { root, slides, order: [...slides.keys()] }
}

/** Where `cp.D` (`cp.model.data`) is assigned its object literal. */
const DATA_ASSIGNMENT = /(?:cp\.D|cp\.model\.data)\s*=\s*(?:(?:cp\.D|cp\.model\.data)\s*=\s*)?\{/

function readJs(text: string): JsModel {
  const m = DATA_ASSIGNMENT.exec(text)
  if (!m) throw unreadable()
  const data = new Reader(text, m.index + m[0].length - 1).value()
  if (data.kind !== 'object') throw unreadable()
  const list = str(field(field(data, 'project_main'), 'slides'))
  const order = list
    ? list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : data.entries.filter((e) => field(e.value, 'lb') !== undefined && num(field(e.value, 'from')) !== undefined).map((e) => e.key)
  if (order.length === 0) throw unreadable()
  for (const id of order) {
    const s = field(data, id)
    if (num(field(s, 'from')) === undefined || num(field(s, 'to')) === undefined) throw unreadable()
  }
  return { data, order }
}

const fps = (txt: TxtModel | null, js: JsModel | null) =>
  num(field(field(txt?.root, 'metadata'), 'frameRate')) ?? num(field(field(js?.data, 'project'), 'fps')) ?? CAPTIVATE_FRAME_RATE

function model(files: CaptivateFiles): { txt: TxtModel | null; js: JsModel | null; project: CaptivateProject } {
  const txt = files.projectTxt === null ? null : readTxt(files.projectTxt)
  const js = files.projectJs === null ? null : readJs(files.projectJs)
  if (!txt && !js) throw unreadable()
  // Both files describe the same slides; when they disagree neither can be trusted.
  if (txt && js && (txt.order.length !== js.order.length || txt.order.some((id, i) => id !== js.order[i]))) throw unreadable()
  const order = txt?.order ?? js!.order
  const videos = new Map<string, CaptivateVideo>()
  const eventVideos = field(txt?.root, 'eventVideos')
  if (eventVideos?.kind === 'array')
    for (const v of eventVideos.items) {
      const slideId = str(field(v, 'slideId'))
      const id = str(field(v, 'id'))
      const src = str(field(v, 'src'))
      if (slideId && id && src)
        videos.set(slideId, { id, src, durationInFrames: num(field(v, 'durationInFrames')) ?? (num(field(v, 'to')) ?? 0) - (num(field(v, 'from')) ?? 0) + 1 })
    }
  if (js)
    for (const e of js.data.kind === 'object' ? js.data.entries : []) {
      if (num(field(e.value, 'type')) !== 1200) continue
      const slideId = str(field(e.value, 'apsn'))
      const src = str(field(e.value, 'vidurl'))
      if (slideId && src && !videos.has(slideId))
        videos.set(slideId, { id: e.key, src, durationInFrames: num(field(e.value, 'du')) ?? (num(field(e.value, 'to')) ?? 0) - (num(field(e.value, 'from')) ?? 0) + 1 })
    }
  const slides = order.map((id): CaptivateSlide => {
    const t = txt?.slides.get(id)
    const j = field(js?.data, id)
    const from = num(field(t, 'from')) ?? num(field(j, 'from'))!
    const to = num(field(t, 'to')) ?? num(field(j, 'to'))!
    const name = str(field(t, 'name')) ?? str(field(j, 'lb')) ?? id
    return { id, name, title: str(field(t, 'title')) ?? name, from, to, durationInFrames: to - from + 1, video: videos.get(id) ?? null }
  })
  const durationInFrames = num(field(field(txt?.root, 'metadata'), 'durationInFrames')) ?? num(field(field(js?.data, 'project_main'), 'to')) ?? slides[slides.length - 1]!.to
  const title = str(field(field(txt?.root, 'metadata'), 'title')) ?? str(field(field(js?.data, 'project'), 'pN')) ?? ''
  return { txt, js, project: { title, frameRate: fps(txt, js), durationInFrames, slides } }
}

/** The project the files describe; throws CaptivateError `unreadable` when neither can be read. */
export function parseCaptivateProject(files: CaptivateFiles): CaptivateProject {
  return model(files).project
}

// ---------------------------------------------------------------------------------------------
// Durations.

const pad = (n: number) => String(n).padStart(2, '0')

/** Seconds as HH:MM:SS (whole seconds, rounded). */
export function formatHms(seconds: number): string {
  const s = Math.round(Math.abs(seconds))
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`
}

/** A signed difference as "+HH:MM:SS" / "-HH:MM:SS". */
export const formatDifference = (seconds: number) => `${seconds < 0 ? '-' : '+'}${formatHms(seconds)}`

/**
 * Seconds of a typed duration: HH:MM:SS, or also MM:SS when `allowMinutes` (the timing editor).
 * Minutes and seconds below 60; null when malformed or zero.
 */
export function parseDuration(text: string, opts: { allowMinutes: boolean }): number | null {
  const m = /^\s*(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})\s*$/.exec(text)
  if (!m || (m[1] === undefined && !opts.allowMinutes)) return null
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])]
  if (min >= 60 || s >= 60) return null
  const total = h * 3600 + min * 60 + s
  return total > 0 ? total : null
}

// ---------------------------------------------------------------------------------------------
// Rewriting.

type Edit = { start: number; end: number; text: string }

const apply = (text: string, edits: Edit[]) => [...edits].sort((a, b) => b.start - a.start).reduce((out, e) => out.slice(0, e.start) + e.text + out.slice(e.end), text)

const quoted = (value: string, quote: '"' | "'") =>
  quote +
  value.replace(/[\\\n\r\t\u2028\u2029]|["']/g, (c) => {
    if (c === '\\') return '\\\\'
    if (c === '\n') return '\\n'
    if (c === '\r') return '\\r'
    if (c === '\t') return '\\t'
    if (c === '\u2028') return '\\u2028'
    if (c === '\u2029') return '\\u2029'
    return c === quote ? `\\${c}` : c
  }) +
  quote

/** Collects edits of one file. */
class Edits {
  readonly list: Edit[] = []
  number(v: Value | undefined, next: number) {
    if (v?.kind === 'number' && v.value !== next) this.list.push({ start: v.start, end: v.end, text: String(next) })
  }
  shift(v: Value | undefined, delta: number) {
    const n = num(v)
    if (n !== undefined) this.number(v, n + delta)
  }
  string(v: Value | undefined, next: string) {
    if (v?.kind === 'string' && v.value !== next) this.list.push({ start: v.start, end: v.end, text: quoted(next, v.quote) })
  }
}

export interface CaptivateEdit {
  slideId: string
  /** New name of the slide (trimmed; unchanged when absent). */
  name?: string
  /** New length of the slide in frames (unchanged when absent). */
  durationInFrames?: number
}

export interface CaptivateEditResult {
  files: CaptivateFiles
  project: CaptivateProject
  slide: CaptivateSlide
  /** Frames the slide (and every later frame) moved by. */
  deltaFrames: number
  /** Whether each file changed. */
  filesUpdated: { projectJs: boolean; projectTxt: boolean }
  /** 1-based line of project.js (else project.txt) holding the slide's definition, and that file's line count. */
  slideFoundAtLine: number
  totalLines: number
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length

/**
 * Renames and/or retimes one slide in both files, by the package format's rules: the slide's end,
 * its items and video that ran to its end, every later slide, item and event video, the project's
 * length and the table of contents move by the change; nothing else changes. A name change
 * touches only the slide's names (`name` in project.txt, `lb` in project.js).
 */
export function editCaptivateProject(files: CaptivateFiles, edit: CaptivateEdit): CaptivateEditResult {
  const { txt, js, project } = model(files)
  const index = project.slides.findIndex((s) => s.id === edit.slideId)
  if (index < 0) throw new CaptivateError(CAPTIVATE_MESSAGES.unknownSlide, 'unknown_slide')
  const slide = project.slides[index]!
  const name = edit.name?.trim()
  if (edit.name !== undefined && !name) throw new CaptivateError(CAPTIVATE_MESSAGES.emptyName, 'empty_name')
  if (name === undefined && edit.durationInFrames === undefined) throw new CaptivateError(CAPTIVATE_MESSAGES.nothingToChange, 'nothing_to_change')
  const frames = edit.durationInFrames ?? slide.durationInFrames
  if (!Number.isSafeInteger(frames) || frames < 1 || frames > 24 * 3600 * project.frameRate) throw new CaptivateError(CAPTIVATE_MESSAGES.badDuration, 'bad_duration')
  const delta = frames - slide.durationInFrames
  const oldTo = slide.to
  const newTo = oldTo + delta
  const later = new Set(project.slides.slice(index + 1).map((s) => s.id))

  // project.txt
  let projectTxt = files.projectTxt
  if (txt && projectTxt !== null) {
    const e = new Edits()
    for (const id of txt.order) {
      const s = txt.slides.get(id)!
      if (id === slide.id) {
        if (name !== undefined) e.string(field(s, 'name'), name)
        e.number(field(s, 'to'), newTo)
        e.shift(field(s, 'durationInFrames'), delta)
      } else if (later.has(id)) {
        e.shift(field(s, 'from'), delta)
        e.shift(field(s, 'to'), delta)
      }
    }
    const videos = field(txt.root, 'eventVideos')
    for (const v of videos?.kind === 'array' ? videos.items : []) {
      const on = str(field(v, 'slideId'))
      if (on === slide.id && num(field(v, 'to')) === oldTo && delta !== 0) {
        if (num(field(v, 'from'))! > newTo) throw new CaptivateError(CAPTIVATE_MESSAGES.tooShort, 'too_short')
        e.number(field(v, 'to'), newTo)
        e.shift(field(v, 'durationInFrames'), delta)
      } else if (on && later.has(on)) {
        e.shift(field(v, 'from'), delta)
        e.shift(field(v, 'to'), delta)
      }
    }
    e.shift(field(field(txt.root, 'metadata'), 'durationInFrames'), delta)
    const toc = field(txt.root, 'tableOfContents')
    for (const t of toc?.kind === 'array' ? toc.items : [])
      if (str(field(t, 'slideId')) === slide.id && delta !== 0) e.string(field(t, 'duration'), formatHms(frames / project.frameRate))
    projectTxt = apply(projectTxt, e.list)
  }

  // project.js
  let projectJs = files.projectJs
  if (js && projectJs !== null && js.data.kind === 'object') {
    const e = new Edits()
    for (const { key, value } of js.data.entries) {
      if (key === slide.id) {
        if (name !== undefined) e.string(field(value, 'lb'), name)
        e.number(field(value, 'to'), newTo)
        continue
      }
      if (later.has(key)) {
        e.shift(field(value, 'from'), delta)
        e.shift(field(value, 'to'), delta)
        continue
      }
      const on = str(field(value, 'apsn'))
      if (on === slide.id && delta !== 0) {
        const from = num(field(value, 'from'))
        const to = num(field(value, 'to'))
        if (from !== undefined && from > newTo) throw new CaptivateError(CAPTIVATE_MESSAGES.tooShort, 'too_short')
        if (to === oldTo) {
          e.number(field(value, 'to'), newTo)
          if (from !== undefined && num(field(value, 'du')) === to - from + 1) e.shift(field(value, 'du'), delta)
        } else if (to !== undefined && to > newTo) throw new CaptivateError(CAPTIVATE_MESSAGES.tooShort, 'too_short')
      } else if (on && later.has(on)) {
        e.shift(field(value, 'from'), delta)
        e.shift(field(value, 'to'), delta)
      }
    }
    e.shift(field(field(js.data, 'project_main'), 'to'), delta)
    projectJs = apply(projectJs, e.list)
  }

  const out: CaptivateFiles = { projectTxt, projectJs }
  // Read back what was written: it must say exactly what was asked, or it is not handed out.
  let after: CaptivateProject
  try {
    after = parseCaptivateProject(out)
  } catch {
    throw unreadable()
  }
  const changed = after.slides[index]
  const expected = project.slides.map((s, i) =>
    i < index ? s : i === index ? { ...s, name: name ?? s.name, to: newTo, durationInFrames: frames } : { ...s, from: s.from + delta, to: s.to + delta },
  )
  const same =
    after.slides.length === expected.length &&
    after.slides.every((s, i) => s.id === expected[i]!.id && s.name === expected[i]!.name && s.from === expected[i]!.from && s.to === expected[i]!.to)
  if (!changed || !same || after.durationInFrames !== project.durationInFrames + delta) throw unreadable()

  const where = js && files.projectJs !== null ? { text: files.projectJs, at: field(js.data, slide.id)?.start } : { text: files.projectTxt!, at: txt!.slides.get(slide.id)!.start }
  return {
    files: out,
    project: after,
    slide: changed,
    deltaFrames: delta,
    filesUpdated: { projectJs: projectJs !== files.projectJs, projectTxt: projectTxt !== files.projectTxt },
    slideFoundAtLine: lineOf(where.text, where.at ?? 0),
    totalLines: where.text.split('\n').length,
  }
}

// ---------------------------------------------------------------------------------------------
// Videos.

/**
 * Seconds of an MP4 from its `mvhd` box, when `bytes` (the start and/or end of the file, where
 * the `moov` box sits) hold it; null otherwise.
 */
export function mp4DurationSeconds(bytes: Uint8Array): number | null {
  for (let i = 4; i + 24 <= bytes.length; i++) {
    if (bytes[i] !== 0x6d || bytes[i + 1] !== 0x76 || bytes[i + 2] !== 0x68 || bytes[i + 3] !== 0x64) continue // 'mvhd'
    const view = new DataView(bytes.buffer, bytes.byteOffset + i + 4)
    const version = view.getUint8(0)
    if (version === 1) {
      if (i + 4 + 32 > bytes.length) return null
      const scale = view.getUint32(20)
      const duration = Number(view.getBigUint64(24))
      return scale > 0 ? duration / scale : null
    }
    const scale = view.getUint32(12)
    const duration = view.getUint32(16)
    return scale > 0 ? duration / scale : null
  }
  return null
}

/** The file name of a path. */
export const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/** Whether a slide is flagged "Likely Problem Slide". */
export const isLikelyProblemSlide = (slide: Pick<CaptivateSlide, 'durationInFrames'>, frameRate = CAPTIVATE_FRAME_RATE) =>
  slide.durationInFrames / frameRate > LIKELY_PROBLEM_SLIDE_SECONDS
