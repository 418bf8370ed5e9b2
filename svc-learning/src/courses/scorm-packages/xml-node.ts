/** Reading the element tree fast-xml-parser makes of a manifest (namespace prefixes dropped, names lower-cased). */

/** A parsed element: attributes under '@', text under '#text', children by lower-case local name. */
export type XmlNode = { '@'?: Record<string, string>; '#text'?: string } & Record<string, unknown>

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Decodes XML's predefined entities and character references; other entity references stay as written. */
export function decodeXmlText(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return PREDEFINED[ref] ?? whole
  })
}

export const isNode = (v: unknown): v is XmlNode => typeof v === 'object' && v !== null && !Array.isArray(v)

export const asArray = (v: unknown): XmlNode[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map((x) => (isNode(x) ? x : { '#text': String(x) }))

export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => (node ? asArray(node[name])[0] : undefined)

export const attr = (node: XmlNode | undefined, name: string): string | null => {
  const v = node?.['@']?.[name]
  return v === undefined ? null : decodeXmlText(String(v))
}

/** The text of an element (first one when repeated); null when absent or empty. */
export const textOf = (v: unknown): string | null => {
  const first = Array.isArray(v) ? v[0] : v
  if (first === undefined || first === null) return null
  const raw = isNode(first) ? first['#text'] : first
  if (raw === undefined || raw === null) return null
  const s = decodeXmlText(String(raw)).trim()
  return s === '' ? null : s
}

export const numberOf = (s: string | null): number | null => {
  if (s === null || s.trim() === '') return null
  const n = Number(s.trim())
  return Number.isFinite(n) ? n : null
}
