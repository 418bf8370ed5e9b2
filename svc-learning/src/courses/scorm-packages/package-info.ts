import { launchableItems, type Cmi5Course, type ScormItem, type ScormOrganization, type ScormVersion } from '@portal/contracts'

/** What an ingested package holds: its runtime version, title and launchable item tree. */
export interface PackageInfo {
  version: ScormVersion
  /** e.g. '2004 3rd Edition', '2004 4th Edition', '1.2', 'AICC'; null when the manifest does not say (and for cmi5). */
  edition: string | null
  /** The default organization's title (or the course title). */
  title: string
  /**
   * The item tree of the default organization. `href` is relative to the package root, includes the
   * resource's xml:base and the item's `parameters` (e.g. 'shared/launchpage.html?content=playing');
   * null for clusters.
   */
  items: ScormItem[]
  /** Items with an href. */
  scoCount: number
  /** SCORM 2004: the organization as the sequencing engine's root activity. */
  organization?: ScormOrganization
  /** cmi5: the course structure read from cmi5.xml (`items` is its tree for the viewer). */
  cmi5?: Cmi5Course
  fileCount: number
  totalBytes: number
}

/** A package that cannot be used; `message` is shown to the admin as the module's processing error. */
export class PackageError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = 'PackageError'
    this.code = code
  }
}

export const countScos = (items: ScormItem[]) => launchableItems(items).length

/** True for hrefs that point outside the package (`http:`, `https:`, `//host`, ...). */
export const isExternalHref = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')

/**
 * The package path a launch href points to: without query string or fragment, percent-decoded,
 * `./` and `..` resolved. Null when it leaves the package root or is not a plain relative path.
 */
export function launchPathOf(href: string): string | null {
  if (isExternalHref(href)) return null
  let path = href.replace(/[?#].*$/s, '')
  try {
    path = decodeURIComponent(path)
  } catch {
    // A stray '%' is part of the name.
  }
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return null
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (out.length === 0) return null
      out.pop()
    } else out.push(segment)
  }
  return out.length ? out.join('/').normalize('NFC') : null
}
