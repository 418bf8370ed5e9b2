import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { ScormDataMap, ScormItem, ScormOrganization, ScormVersion } from '@portal/contracts'
import { walkItems } from '@portal/contracts'
import { countScos, isExternalHref, PackageError, type PackageInfo } from './package-info.ts'
import { completionOf, hideLmsUiOf, organizationOf, sequencingOf } from './sequencing.ts'
import { asArray, attr, child, numberOf, textOf, type XmlNode } from './xml-node.ts'

export { decodeXmlText } from './xml-node.ts'

/**
 * imsmanifest.xml (IMS Content Packaging as profiled by SCORM 1.2 and SCORM 2004 CAM).
 * Namespace prefixes are dropped and tag and attribute names lower-cased, so `adlcp:masteryscore`,
 * `adlcp:dataFromLMS` and a default-namespace `<item>` all read alike. Entities are not expanded by
 * the parser (no DTD entity expansion at all); the five predefined ones and character references are
 * decoded here in the values that are read.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  transformTagName: (name) => name.toLowerCase(),
  transformAttributeName: (name) => name.toLowerCase(),
  isArray: (name) => ARRAY_TAGS.has(name),
})
const ARRAY_TAGS = new Set(['organization', 'item', 'resource', 'sequencing', 'file', 'dependency'])

/** Version and edition from `<schemaversion>`, else from the namespaces the manifest declares. */
function detectVersion(manifest: XmlNode, xml: string): { version: ScormVersion; edition: string | null } {
  const schemaVersion = textOf(child(manifest, 'metadata')?.schemaversion)
  if (schemaVersion) {
    const sv = schemaVersion.toLowerCase()
    if (sv === '1.2') return { version: '1.2', edition: '1.2' }
    if (sv === '1.1' || sv === '1.0') return { version: '1.2', edition: schemaVersion }
    if (sv === 'cam 1.3') return { version: '2004', edition: '2004 2nd Edition' }
    const ed = /2004\s*(\d)\s*(?:st|nd|rd|th)?\s*edition/i.exec(schemaVersion)
    if (ed) {
      const n = Number(ed[1])
      const suffix = n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'
      return { version: '2004', edition: `2004 ${n}${suffix} Edition` }
    }
    if (sv.startsWith('2004') || sv.startsWith('cam')) return { version: '2004', edition: null }
  }
  if (/adlcp_v1p3|adlseq_v1p3|imsss/i.test(xml)) return { version: '2004', edition: null }
  if (/adlcp_rootv1p2/i.test(xml)) return { version: '1.2', edition: '1.2' }
  // No sign of 2004: the 1.2 runtime is what content without a declared version expects.
  return { version: '1.2', edition: null }
}

/** Joins xml:base values and an href: each base is a folder (a missing trailing '/' is added). */
function joinBases(bases: (string | null)[], href: string): string {
  if (isExternalHref(href)) return href
  let out = href
  for (let i = bases.length - 1; i >= 0; i--) {
    const base = bases[i]
    if (!base) continue
    out = (base.endsWith('/') ? base : `${base}/`) + out
    if (isExternalHref(base)) break
  }
  return out
}

/**
 * Appends an item's `parameters` to a launch URL (SCORM CAM "parameters" rules): leading '?' and
 * '&' are dropped; a '#fragment' is appended only when the URL has none; otherwise the parameters
 * join the query with '&' when there is one, else start it with '?'.
 */
export function appendParameters(href: string, parameters: string | null): string {
  if (!parameters) return href
  const p = parameters.trim().replace(/^[?&]+/, '')
  if (!p) return href
  if (p.startsWith('#')) return href.includes('#') ? href : href + p
  const hashAt = href.indexOf('#')
  const [base, hash] = hashAt === -1 ? [href, ''] : [href.slice(0, hashAt), href.slice(hashAt)]
  return (base.includes('?') ? `${base}&${p}` : `${base}?${p}`) + hash
}

/** Resolves './' and 'a/../' in the path part of a relative href, keeping its query and fragment. */
function normalizeHref(href: string): string {
  if (isExternalHref(href)) return href
  const cut = href.search(/[?#]/)
  const [path, rest] = cut === -1 ? [href, ''] : [href.slice(0, cut), href.slice(cut)]
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '') continue
    if (segment === '..' && out.length && out[out.length - 1] !== '..') out.pop()
    else out.push(segment)
  }
  return out.join('/') + rest
}

interface Resource {
  href: string | null
  /** `adlcp:scormType="asset"` (1.2 `adlcp:scormtype`): content that never talks to the runtime. */
  asset: boolean
}

interface Context {
  version: ScormVersion
  resources: Map<string, Resource>
  /** imsss:sequencingCollection entries by ID, for items whose sequencing has an IDRef. */
  sequencingById: Map<string, XmlNode>
  counter: number
  /** Some item has an imsss:sequencing element. */
  itemsDeclareSequencing: boolean
}

/** Reads a value from an item's imsss:sequencing, falling back to the collection entry it references. */
function fromSequencing<T>(item: XmlNode, ctx: Context, read: (seq: XmlNode) => T | null): T | null {
  const seq = child(item, 'sequencing')
  if (!seq) return null
  const own = read(seq)
  if (own !== null) return own
  const ref = attr(seq, 'idref')
  const shared = ref ? ctx.sequencingById.get(ref) : undefined
  return shared ? read(shared) : null
}

/** imsss:primaryObjective with satisfiedByMeasure="true" → its minNormalizedMeasure (default 1.0). */
const scaledPassingScoreOf = (seq: XmlNode): number | null => {
  const primary = child(child(seq, 'objectives'), 'primaryobjective')
  if (!primary || attr(primary, 'satisfiedbymeasure')?.trim().toLowerCase() !== 'true') return null
  return numberOf(textOf(primary.minnormalizedmeasure)) ?? 1
}

function completionThresholdOf(item: XmlNode): number | null {
  const ct = child(item, 'completionthreshold')
  if (!ct) return null
  return numberOf(attr(ct, 'minprogressmeasure')) ?? numberOf(textOf(ct))
}

/** 2004 4th `adlcp:data/adlcp:map`: the shared data stores (adl.data) a SCO reads and writes. */
function dataMapsOf(item: XmlNode): ScormDataMap[] | undefined {
  const maps = asArray(child(item, 'data')?.map)
    .map((m) => ({
      targetID: attr(m, 'targetid')?.trim() ?? '',
      readSharedData: attr(m, 'readshareddata')?.trim().toLowerCase() !== 'false',
      writeSharedData: attr(m, 'writeshareddata')?.trim().toLowerCase() !== 'false',
    }))
    .filter((m) => m.targetID !== '')
  return maps.length ? maps : undefined
}

/** imsss:objectives of an item's sequencing: the primary objective's ID (when it has one), then the others. */
const objectiveIdsOf = (seq: XmlNode): string[] | null => {
  const objectives = child(seq, 'objectives')
  if (!objectives) return null
  const ids = [...asArray(objectives.primaryobjective), ...asArray(objectives.objective)].map((o) => attr(o, 'objectiveid')?.trim() ?? '').filter((id) => id !== '')
  return ids.length ? [...new Set(ids)] : null
}

function toItem(node: XmlNode, ctx: Context): ScormItem {
  ctx.counter++
  const identifier = attr(node, 'identifier') ?? `item_${ctx.counter}`
  const ref = attr(node, 'identifierref')
  const resource = ref ? ctx.resources.get(ref) : undefined
  const href = resource?.href ? normalizeHref(appendParameters(resource.href, attr(node, 'parameters'))) : null
  const adlcpText = (name: string) => textOf(node[name])
  const dataMaps = dataMapsOf(node)
  const objectiveIds = fromSequencing(node, ctx, objectiveIdsOf)
  // Sequencing is a SCORM 2004 feature; a 1.2 manifest's stray imsss elements mean nothing to its runtime.
  const sequencing = ctx.version === '2004' ? sequencingOf(node, ctx.sequencingById) : undefined
  const completion = ctx.version === '2004' ? completionOf(node) : undefined
  const hideLmsUi = ctx.version === '2004' ? hideLmsUiOf(node) : undefined
  if (sequencing) ctx.itemsDeclareSequencing = true
  return {
    identifier,
    title: textOf(node.title) ?? identifier,
    href,
    isvisible: attr(node, 'isvisible')?.trim().toLowerCase() !== 'false',
    launch_data: adlcpText('datafromlms'),
    mastery_score: numberOf(adlcpText('masteryscore')),
    prerequisites: adlcpText('prerequisites'),
    completion_threshold: completionThresholdOf(node),
    scaled_passing_score: fromSequencing(node, ctx, scaledPassingScoreOf),
    max_time_allowed: adlcpText('maxtimeallowed') ?? fromSequencing(node, ctx, (seq) => attr(child(seq, 'limitconditions'), 'attemptabsolutedurationlimit')),
    time_limit_action: adlcpText('timelimitaction'),
    ...(dataMaps ? { data_maps: dataMaps } : {}),
    ...(objectiveIds ? { objective_ids: objectiveIds } : {}),
    ...(sequencing ? { sequencing } : {}),
    ...(completion ? { completion } : {}),
    ...(hideLmsUi ? { hide_lms_ui: hideLmsUi } : {}),
    ...(href && resource?.asset ? { asset: true } : {}),
    children: asArray(node.item).map((c) => toItem(c, ctx)),
  }
}

/** Parses imsmanifest.xml text alone: version, title and the default organization's item tree. */
export function parseManifest(xml: string): Omit<PackageInfo, 'fileCount' | 'totalBytes'> {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml
  const valid = XMLValidator.validate(text)
  if (valid !== true) {
    throw new PackageError('manifest_invalid_xml', `imsmanifest.xml is not valid XML: ${valid.err.msg} (line ${valid.err.line})`)
  }
  let doc: Record<string, unknown>
  try {
    doc = parser.parse(text) as Record<string, unknown>
  } catch (err) {
    throw new PackageError('manifest_invalid_xml', `imsmanifest.xml is not valid XML: ${(err as Error).message}`)
  }
  const manifest = asArray(doc.manifest)[0]
  if (!manifest) throw new PackageError('manifest_invalid', 'imsmanifest.xml has no <manifest> element')

  const { version, edition } = detectVersion(manifest, text)
  const resourcesNode = child(manifest, 'resources')
  const resources = new Map<string, Resource>()
  for (const r of asArray(resourcesNode?.resource)) {
    const id = attr(r, 'identifier')
    if (!id) continue
    const href = attr(r, 'href')?.trim()
    resources.set(id, {
      href: href ? joinBases([attr(manifest, 'base'), attr(resourcesNode, 'base'), attr(r, 'base')], href) : null,
      asset: attr(r, 'scormtype')?.trim().toLowerCase() === 'asset',
    })
  }
  const sequencingById = new Map<string, XmlNode>()
  for (const seq of asArray(child(manifest, 'sequencingcollection')?.sequencing)) {
    const id = attr(seq, 'id')
    if (id) sequencingById.set(id, seq)
  }
  const ctx: Context = { version, resources, sequencingById, counter: 0, itemsDeclareSequencing: false }

  const organizationsNode = child(manifest, 'organizations')
  const organizations = asArray(organizationsNode?.organization)
  const defaultId = attr(organizationsNode, 'default')
  const organization = organizations.find((o) => attr(o, 'identifier') === defaultId) ?? organizations[0]

  let items: ScormItem[]
  let title: string | null
  let root: ScormOrganization | undefined
  if (organization) {
    items = asArray(organization.item).map((node) => toItem(node, ctx))
    title = textOf(organization.title)
    if (version === '2004') {
      const identifier = attr(organization, 'identifier')?.trim() || rootIdAvoiding(items)
      root = organizationOf(organization, identifier, sequencingById, ctx.itemsDeclareSequencing)
    }
  } else {
    // A resource package (no organization): every SCO resource is an item of its own.
    items = asArray(resourcesNode?.resource)
      .filter((r) => attr(r, 'scormtype')?.toLowerCase() === 'sco' && attr(r, 'identifier'))
      .map((r) => toItem({ '@': { identifier: attr(r, 'identifier')!, identifierref: attr(r, 'identifier')! } }, ctx))
    title = null
  }
  const scoCount = countScos(items)
  if (scoCount === 0) throw new PackageError('no_launchable_item', 'The package has no launchable item')
  return {
    version,
    edition,
    title: title ?? items[0]?.title ?? attr(manifest, 'identifier') ?? 'Untitled package',
    items,
    scoCount,
    ...(root ? { organization: root } : {}),
  }
}

/** An identifier for an organization that has none: distinct from every item's. */
export function rootIdAvoiding(items: ScormItem[]): string {
  const ids = new Set([...walkItems(items)].map((i) => i.identifier))
  let id = 'organization'
  while (ids.has(id)) id += '_'
  return id
}
