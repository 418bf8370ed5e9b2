/**
 * What the browser shows of a cmi5 course structure before upload (issue 26): its title and how
 * many assignable units it has. The server parses and validates cmi5.xml when it ingests the
 * package; this is a quick reading for the form (it runs in the package worker too, which has no
 * DOMParser, and imports nothing so the worker stays small), so it counts elements in the text
 * rather than building a document. `course` is false for XML that has no cmi5 course element.
 */
export interface Cmi5Summary {
  course: boolean
  title: string | null
  auCount: number
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref] ?? whole
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

/** The text of an XML file's bytes: UTF-16 by its byte order mark, else UTF-8. */
export const xmlText = (bytes: Uint8Array): string =>
  new TextDecoder(bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8').decode(bytes)

/** A start tag of `name`, with or without a namespace prefix. */
const tag = (name: string) => `<(?:[A-Za-z_][\\w.-]*:)?${name}(?=[\\s/>])`

export function cmi5Summary(xml: string): Cmi5Summary {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
  const auCount = text.match(new RegExp(tag('au'), 'g'))?.length ?? 0
  if (!new RegExp(tag('course')).test(text)) return { course: false, title: null, auCount }
  const course = new RegExp(`${tag('course')}[^>]*>([\\s\\S]*?)(?:${tag('block')}|${tag('au')}|</(?:[\\w.-]+:)?course>)`).exec(text)?.[1] ?? ''
  const titleXml = new RegExp(`${tag('title')}[^>]*>([\\s\\S]*?)</(?:[\\w.-]+:)?title>`).exec(course)?.[1] ?? ''
  const strings = [...titleXml.matchAll(new RegExp(`${tag('langstring')}([^>]*)>([^<]*)<`, 'g'))]
  const english = strings.find((m) => /lang\s*=\s*["']en(-|["'])/i.test(m[1]!)) ?? strings[0]
  const title = (english ? decode(english[2]!).trim() : decode(titleXml).trim()) || null
  return { course: true, title, auCount }
}

/** The line the form shows for a cmi5 course: "cmi5 course “Title” · 3 assignable units". */
export const cmi5Text = (s: { title: string | null; auCount: number }): string =>
  `cmi5 course${s.title ? ` “${s.title}”` : ''} · ${s.auCount} assignable unit${s.auCount === 1 ? '' : 's'}`
