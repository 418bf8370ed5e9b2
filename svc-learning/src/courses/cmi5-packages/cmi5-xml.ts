import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { CMI5_MESSAGES, Cmi5LaunchMethod, Cmi5MoveOn, MAX_CMI5_AUS, type Cmi5Au, type Cmi5Block, type Cmi5Course, type Cmi5Objective, type ScormItem } from '@portal/contracts'
import { isExternalHref, launchPathOf, PackageError } from '../scorm-packages/package-info.ts'
import { decodeXmlText } from '../scorm-packages/xml-node.ts'

/**
 * cmi5.xml, the cmi5 course structure (cmi5 §13.1 and its CourseStructure.xsd): a `courseStructure`
 * holding one `course`, optional `objectives`, then `block`s and `au`s in any order (blocks nest).
 * The same XML library as imsmanifest.xml, in its order-preserving mode: blocks and AUs are
 * siblings whose order is the course's order, which the default mode (children grouped by name)
 * would lose. Namespace prefixes are dropped; names are matched as the XSD spells them. Entities
 * are not expanded (no DTD expansion); predefined ones and character references are decoded here.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
})

/** An element as the order-preserving parser gives it: `{ [name]: children, ':@': attributes }`, or `{ '#text': text }`. */
type OrderedNode = Record<string, unknown>

interface Element {
  name: string
  attributes: Record<string, string>
  children: OrderedNode[]
}

function elementOf(node: OrderedNode): Element | null {
  for (const key of Object.keys(node)) {
    if (key === ':@' || key === '#text' || key.startsWith('?')) continue
    const children = node[key]
    return { name: key, attributes: (node[':@'] as Record<string, string> | undefined) ?? {}, children: Array.isArray(children) ? (children as OrderedNode[]) : [] }
  }
  return null
}

const elementsOf = (children: OrderedNode[]): Element[] => children.map(elementOf).filter((e): e is Element => e !== null)
const firstNamed = (e: Element, name: string) => elementsOf(e.children).find((c) => c.name === name)

/** Attribute value, trimmed (cmi5 §13.1: leading/trailing whitespace is removed on import); null when absent. */
const attrOf = (e: Element, name: string): string | null => {
  const v = e.attributes[name]
  return v === undefined ? null : decodeXmlText(String(v)).trim()
}

/** The element's own text, trimmed; null when empty. */
function textOf(e: Element | undefined): string | null {
  if (!e) return null
  const raw = e.children
    .map((c) => c['#text'])
    .filter((t) => t !== undefined)
    .join('')
  const s = decodeXmlText(raw).trim()
  return s === '' ? null : s
}

/** A langstring element's text: the English langstring, else the first one, else the element's own text. */
function langText(e: Element | undefined): string | null {
  if (!e) return null
  const strings = elementsOf(e.children).filter((c) => c.name === 'langstring')
  const english = strings.find((s) => /^en(-|$)/i.test(attrOf(s, 'lang') ?? ''))
  return textOf(english ?? strings[0]) ?? textOf(e)
}

/** An IRI as far as the importer checks one (RFC 3987 loosely): a scheme, ':', then something without whitespace. */
export const isIri = (id: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(id)

/** xs:decimal: optional sign, digits with an optional fraction (no exponent). */
const XS_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

const isHttpUrl = (url: string) => /^https?:\/\/\S/i.test(url)

export interface Cmi5ParseOptions {
  /**
   * The package's files (paths relative to the package root, as launchPathOf gives them): every
   * relative AU url must point to one. Null for a cmi5.xml uploaded alone: every url must then be
   * an absolute http(s) URL (cmi5 §14.2).
   */
  packageFiles: ReadonlySet<string> | null
}

interface Walk {
  ids: Set<string>
  auCount: number
  opts: Cmi5ParseOptions
}

function claimId(e: Element, walk: Walk): string {
  const id = attrOf(e, 'id') ?? ''
  if (!isIri(id)) throw new PackageError('cmi5_not_iri', CMI5_MESSAGES.notIri(id))
  if (walk.ids.has(id)) throw new PackageError('cmi5_duplicate_id', CMI5_MESSAGES.duplicateId(id))
  walk.ids.add(id)
  return id
}

/** `<objectives><objective idref="…"/></objectives>` of a block or AU. */
const objectiveRefsOf = (e: Element): string[] =>
  elementsOf(firstNamed(e, 'objectives')?.children ?? [])
    .filter((o) => o.name === 'objective')
    .map((o) => attrOf(o, 'idref') ?? '')
    .filter((ref) => ref !== '')

function checkUrl(id: string, url: string, opts: Cmi5ParseOptions) {
  if (isHttpUrl(url)) return
  // Alone, a url without a scheme has nothing to be relative to; another scheme (or a package url
  // leaving the package) is nothing the viewer can open.
  if (opts.packageFiles === null && !isExternalHref(url)) throw new PackageError('cmi5_relative_url_alone', CMI5_MESSAGES.relativeUrlAlone(id))
  const path = launchPathOf(url)
  const raw = url.replace(/[?#].*$/s, '')
  if (opts.packageFiles === null || path === null || (!opts.packageFiles.has(path) && !opts.packageFiles.has(raw))) {
    throw new PackageError('cmi5_missing_file', CMI5_MESSAGES.missingFile(id, url))
  }
}

function toAu(e: Element, walk: Walk): Cmi5Au {
  if (++walk.auCount > MAX_CMI5_AUS) throw new PackageError('cmi5_too_many_aus', CMI5_MESSAGES.tooManyAus)
  const id = claimId(e, walk)
  const launchMethod = attrOf(e, 'launchMethod') ?? 'AnyWindow'
  if (!Cmi5LaunchMethod.safeParse(launchMethod).success) throw new PackageError('cmi5_bad_launch_method', CMI5_MESSAGES.badLaunchMethod(launchMethod))
  const moveOn = attrOf(e, 'moveOn') ?? 'NotApplicable'
  if (!Cmi5MoveOn.safeParse(moveOn).success) throw new PackageError('cmi5_bad_move_on', CMI5_MESSAGES.badMoveOn(moveOn))
  const mastery = attrOf(e, 'masteryScore')
  let masteryScore: number | null = null
  if (mastery !== null) {
    masteryScore = XS_DECIMAL.test(mastery) ? Number(mastery) : NaN
    if (!(masteryScore >= 0 && masteryScore <= 1)) throw new PackageError('cmi5_bad_mastery_score', CMI5_MESSAGES.badMasteryScore(mastery))
  }
  const url = textOf(firstNamed(e, 'url'))
  if (url === null) throw new PackageError('cmi5_missing_url', CMI5_MESSAGES.missingUrl(id))
  checkUrl(id, url, walk.opts)
  return {
    kind: 'au',
    id,
    title: langText(firstNamed(e, 'title')) ?? id,
    description: langText(firstNamed(e, 'description')),
    url,
    launchMethod: launchMethod as Cmi5LaunchMethod,
    moveOn: moveOn as Cmi5MoveOn,
    masteryScore,
    launchParameters: textOf(firstNamed(e, 'launchParameters')),
    entitlementKey: textOf(firstNamed(e, 'entitlementKey')),
    activityType: attrOf(e, 'activityType') || null,
    objectives: objectiveRefsOf(e),
  }
}

function toBlock(e: Element, walk: Walk): Cmi5Block {
  const id = claimId(e, walk)
  return {
    kind: 'block',
    id,
    title: langText(firstNamed(e, 'title')) ?? id,
    description: langText(firstNamed(e, 'description')),
    objectives: objectiveRefsOf(e),
    children: membersOf(e, walk),
  }
}

/** The blocks and AUs among an element's children, in document order. */
const membersOf = (e: Element, walk: Walk): (Cmi5Block | Cmi5Au)[] =>
  elementsOf(e.children).flatMap((c): (Cmi5Block | Cmi5Au)[] => (c.name === 'au' ? [toAu(c, walk)] : c.name === 'block' ? [toBlock(c, walk)] : []))

/**
 * Parses cmi5.xml text into the course structure, or throws PackageError with a CMI5_MESSAGES
 * text: not well-formed, no course, no AU or more than MAX_CMI5_AUS, an id used twice (course,
 * blocks, AUs and objectives share one id space) or not an IRI, an AU without url or whose url is
 * not in the package (see Cmi5ParseOptions), an unknown moveOn or launchMethod, a masteryScore that
 * is not a decimal in 0..1. Defaults (cmi5 §13.1.4): launchMethod AnyWindow, moveOn NotApplicable.
 */
export function parseCmi5Xml(xml: string, opts: Cmi5ParseOptions): Cmi5Course {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml
  if (XMLValidator.validate(text) !== true) throw new PackageError('cmi5_invalid_xml', CMI5_MESSAGES.notXml)
  let doc: OrderedNode[]
  try {
    doc = parser.parse(text) as OrderedNode[]
  } catch {
    throw new PackageError('cmi5_invalid_xml', CMI5_MESSAGES.notXml)
  }
  const root = elementsOf(doc)[0]
  // A bare <course> root is read as well as the XSD's <courseStructure><course/>…</courseStructure>.
  const structure = root?.name === 'course' ? { name: 'courseStructure', attributes: {}, children: doc } : root
  const courseElement = structure ? firstNamed(structure, 'course') : undefined
  if (!structure || !courseElement) throw new PackageError('cmi5_no_course', CMI5_MESSAGES.noCourse)

  const walk: Walk = { ids: new Set(), auCount: 0, opts }
  const id = claimId(courseElement, walk)
  const objectives: Cmi5Objective[] = elementsOf(firstNamed(structure, 'objectives')?.children ?? [])
    .filter((o) => o.name === 'objective')
    .map((o) => {
      const objectiveId = claimId(o, walk)
      return { id: objectiveId, title: langText(firstNamed(o, 'title')) ?? objectiveId, description: langText(firstNamed(o, 'description')) }
    })
  const children = membersOf(structure, walk)
  if (walk.auCount === 0) throw new PackageError('cmi5_no_aus', CMI5_MESSAGES.noAus)
  return {
    id,
    title: langText(firstNamed(courseElement, 'title')) ?? id,
    description: langText(firstNamed(courseElement, 'description')),
    objectives,
    children,
  }
}

/**
 * The item tree the viewer shows for a cmi5 course (decision 0053): each block an item without
 * href, each AU an item whose identifier is its id and whose href is its url.
 */
export function cmi5Items(nodes: readonly (Cmi5Block | Cmi5Au)[]): ScormItem[] {
  return nodes.map((n) => ({
    identifier: n.id,
    title: n.title,
    href: n.kind === 'au' ? n.url : null,
    isvisible: true,
    launch_data: null,
    mastery_score: n.kind === 'au' ? n.masteryScore : null,
    prerequisites: null,
    completion_threshold: null,
    scaled_passing_score: null,
    max_time_allowed: null,
    time_limit_action: null,
    children: n.kind === 'block' ? cmi5Items(n.children) : [],
  }))
}
