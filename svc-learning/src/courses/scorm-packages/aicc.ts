import { blankScormItem, type ScormItem } from '@portal/contracts'
import { appendParameters } from './manifest.ts'
import { countScos, PackageError, type PackageInfo } from './package-info.ts'

/** The AICC course structure files of a package (their text), as found at its root. */
export interface AiccFiles {
  /** `.crs`: INI-like, `[Course]` `Course_Title=...`. */
  crs?: string
  /** `.au`: one row per assignable unit (system_id, file_name, web_launch, mastery_score, ...). */
  au: string
  /** `.des`: system_id → title (and description) of AUs and blocks. */
  des?: string
  /** `.cst`: block → members; gives the order and the blocks of the course. */
  cst?: string
}

/** The AICC structure file extensions, lower case. */
export const AICC_EXTENSIONS = ['crs', 'au', 'des', 'cst'] as const

/** Parses AICC's comma-separated files: fields optionally quoted with '"' ('""' inside quotes is a quote). */
export function parseAiccCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let wasQuoted = false
  const endField = () => {
    row.push(wasQuoted ? field : field.trim())
    field = ''
    wasQuoted = false
  }
  const endRow = () => {
    endField()
    if (row.some((f) => f !== '')) rows.push(row)
    row = []
  }
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field.trim() === '') {
      quoted = true
      wasQuoted = true
      field = ''
    } else if (c === ',') endField()
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++
      endRow()
    } else field += c
  }
  endRow()
  return rows
}

/** The rows of a CSV file with a header row, as records keyed by lower-case header names. */
function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseAiccCsv(text)
  if (!header) return []
  const keys = header.map((h) => h.trim().toLowerCase())
  return rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i] ?? ''])))
}

/** `[Section]` → key → value of the `.crs` file; section and key names lower case. */
function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>()
  let current = new Map<string, string>()
  sections.set('', current)
  for (const line of text.split(/\r\n|\r|\n/)) {
    const t = line.trim()
    const section = /^\[(.+)\]$/.exec(t)
    if (section) {
      current = new Map()
      sections.set(section[1].trim().toLowerCase(), current)
      continue
    }
    const eq = t.indexOf('=')
    if (eq <= 0) continue
    current.set(
      t.slice(0, eq).trim().toLowerCase(),
      t
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    )
  }
  return sections
}

const orNull = (s: string | undefined) => (s && s.trim() !== '' ? s.trim() : null)
const numberOrNull = (s: string | undefined) => {
  const t = orNull(s)
  if (t === null) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

const emptyItem = (identifier: string, title: string): ScormItem => blankScormItem(identifier, { title })

/** An AU's launch href: its file_name (backslashes as '/') with the web_launch parameters appended. */
function launchHref(fileName: string, webLaunch: string | null): string | null {
  const file = fileName.trim().replace(/\\/g, '/').replace(/^\.\//, '')
  return file ? appendParameters(file, webLaunch) : null
}

/** Parses an AICC course: one item per AU (ordered and grouped by the `.cst` blocks when present). */
export function parseAicc(files: AiccFiles): Omit<PackageInfo, 'fileCount' | 'totalBytes'> {
  const titles = new Map<string, string>()
  for (const r of files.des ? records(files.des) : []) {
    const id = orNull(r.system_id)
    const title = orNull(r.title)
    if (id && title) titles.set(id.toLowerCase(), title)
  }

  const aus = new Map<string, ScormItem>()
  for (const r of records(files.au)) {
    const id = orNull(r.system_id)
    if (!id) continue
    aus.set(id.toLowerCase(), {
      ...emptyItem(id, titles.get(id.toLowerCase()) ?? id),
      href: launchHref(r.file_name ?? '', orNull(r.web_launch)),
      launch_data: orNull(r.core_vendor),
      mastery_score: numberOrNull(r.mastery_score),
      max_time_allowed: orNull(r.max_time_allowed),
      time_limit_action: orNull(r.time_limit_action),
    })
  }

  // .cst rows: block id, then its members (AUs or other blocks); 'root' is the course itself.
  const blocks = new Map<string, string[]>()
  for (const row of files.cst ? parseAiccCsv(files.cst).slice(1) : []) {
    const [block, ...members] = row.map((f) => f.trim()).filter((f) => f !== '')
    if (block) blocks.set(block.toLowerCase(), members)
  }
  const placed = new Set<string>()
  const build = (members: string[], seen: Set<string>): ScormItem[] =>
    members.flatMap((m): ScormItem[] => {
      const key = m.toLowerCase()
      const au = aus.get(key)
      if (au) {
        if (placed.has(key)) return []
        placed.add(key)
        return [au]
      }
      const inner = blocks.get(key)
      if (!inner || seen.has(key)) return []
      const children = build(inner, new Set([...seen, key]))
      if (!children.length) return []
      return [{ ...emptyItem(m, titles.get(key) ?? m), children }]
    })
  const items = build(blocks.get('root') ?? [], new Set(['root']))
  for (const [key, au] of aus) if (!placed.has(key)) items.push(au)

  const scoCount = countScos(items)
  if (scoCount === 0) throw new PackageError('no_launchable_item', 'The package has no launchable item')
  const course = files.crs ? parseIni(files.crs).get('course') : undefined
  return {
    version: 'AICC',
    edition: 'AICC',
    title: orNull(course?.get('course_title')) ?? items[0].title,
    items,
    scoCount,
  }
}
