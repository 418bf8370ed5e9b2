import { launchableItems, walkItems, type ScormItem } from '@portal/contracts'
import type { ItemAccess } from './sequenced-session.ts'

/*
 * SCORM 1.2 `adlcp:prerequisites` (type "aicc_script", CAM 1.2 §2.3.2.2): which items must be done
 * before an item may be opened. The expression language is AICC's: item identifiers, `&` (and),
 * `|` (or), `~` (not), parentheses, `id = status` / `id <> status`, and `n*{a, b, c}` (at least n
 * of the set). An identifier alone holds when its item is completed or passed. The viewer locks
 * the item in the lesson tree with its reason, as the 2004 tree does; this module is small and
 * imported by the viewer itself (no runtime library).
 */

/** The lesson_status of an item as last stored or reported; undefined when never opened. */
export type StatusOf = (identifier: string) => string | undefined

const DONE = new Set(['completed', 'passed'])
/** Status names of AICC scripts: full words, or their first letter. */
const STATUS_WORDS: Record<string, string> = {
  passed: 'passed',
  p: 'passed',
  completed: 'completed',
  c: 'completed',
  failed: 'failed',
  f: 'failed',
  incomplete: 'incomplete',
  i: 'incomplete',
  browsed: 'browsed',
  b: 'browsed',
  'not attempted': 'not attempted',
  n: 'not attempted',
}

type Token = { t: 'id'; v: string } | { t: 'num'; v: number } | { t: 'op'; v: string } | { t: 'str'; v: string }

function tokenize(expr: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < expr.length) {
    const c = expr[i]!
    if (/\s/.test(c)) i++
    else if (c === '<' && expr[i + 1] === '>') {
      out.push({ t: 'op', v: '<>' })
      i += 2
    } else if ('&|~(){},=*'.includes(c)) {
      out.push({ t: 'op', v: c })
      i++
    } else if (c === '"') {
      const end = expr.indexOf('"', i + 1)
      if (end < 0) throw new Error('unterminated string')
      out.push({ t: 'str', v: expr.slice(i + 1, end) })
      i = end + 1
    } else {
      const m = /^[^\s&|~(){},=*<>"]+/.exec(expr.slice(i))
      if (!m) throw new Error(`unexpected ${c}`)
      out.push(
        /^\d+$/.test(m[0]) &&
          expr
            .slice(i + m[0].length)
            .trimStart()
            .startsWith('*')
          ? { t: 'num', v: Number(m[0]) }
          : { t: 'id', v: m[0] },
      )
      i += m[0].length
    }
  }
  return out
}

/** Whether `expr` holds for the statuses; an expression that cannot be read holds (never locks content for our parser's sake). */
export function prerequisitesMet(expr: string | null, statusOf: StatusOf): boolean {
  if (!expr || !expr.trim()) return true
  let tokens: Token[]
  try {
    tokens = tokenize(expr)
  } catch {
    return true
  }
  let pos = 0
  const peek = () => tokens[pos]
  const take = (v?: string) => {
    const tok = tokens[pos++]
    if (!tok || (v !== undefined && !(tok.t === 'op' && tok.v === v))) throw new Error(`expected ${v ?? 'a token'}`)
    return tok
  }
  const isOp = (v: string) => peek()?.t === 'op' && peek()!.v === v
  const done = (id: string) => DONE.has(statusOf(id) ?? '')
  const term = (): boolean => {
    const tok = take()
    if (tok.t === 'op' && tok.v === '~') return !term()
    if (tok.t === 'op' && tok.v === '(') {
      const v = or()
      take(')')
      return v
    }
    if (tok.t === 'num') {
      take('*')
      take('{')
      let count = 0
      for (;;) {
        if (term()) count++
        if (isOp(',')) take(',')
        else break
      }
      take('}')
      return count >= tok.v
    }
    if (tok.t !== 'id') throw new Error('expected an identifier')
    if (isOp('=') || isOp('<>')) {
      const negate = take().v === '<>'
      const word = take()
      const wanted = STATUS_WORDS[String(word.v).toLowerCase()]
      if (!wanted) throw new Error('unknown status')
      const status = statusOf(tok.v) ?? 'not attempted'
      return negate ? status !== wanted : status === wanted
    }
    return done(tok.v)
  }
  const and = (): boolean => {
    let v = term()
    while (isOp('&')) {
      take('&')
      v = term() && v
    }
    return v
  }
  const or = (): boolean => {
    let v = and()
    while (isOp('|')) {
      take('|')
      v = and() || v
    }
    return v
  }
  try {
    const v = or()
    return pos === tokens.length ? v : true
  } catch {
    return true
  }
}

const quoted = (titles: string[]) =>
  titles.length <= 1
    ? `“${titles[0] ?? ''}”`
    : `${titles
        .slice(0, -1)
        .map((t) => `“${t}”`)
        .join(', ')} and “${titles.at(-1)}”`

/**
 * Items of a SCORM 1.2 package whose prerequisites do not hold yet: disabled, with the reason naming
 * the items the expression mentions that are not done. Other items are absent (open as usual).
 */
export function prerequisiteAccess(items: readonly ScormItem[], statusOf: StatusOf): Record<string, ItemAccess> {
  const byId = new Map([...walkItems(items)].map((i) => [i.identifier, i]))
  const access: Record<string, ItemAccess> = {}
  for (const item of launchableItems(items)) {
    if (prerequisitesMet(item.prerequisites, statusOf)) continue
    const named = tokenize(item.prerequisites ?? '')
      .filter((t): t is { t: 'id'; v: string } => t.t === 'id' && byId.has(t.v) && !DONE.has(statusOf(t.v) ?? ''))
      .map((t) => byId.get(t.v)!.title || t.v)
    access[item.identifier] = { kind: 'disabled', reason: named.length ? `Available after ${quoted([...new Set(named)])}.` : 'Not available yet.' }
  }
  return access
}
