import type { ContentPlacement } from '@portal/contracts'
import { fetchRegistry } from '@portal/ui-kit'

/**
 * Where this page's course content plays (decision 0018). Content may be framed only by the
 * portal's own addresses, and its origin follows the one the portal was opened at: the gateway's
 * registry says both for this page's address.
 */
export type ContentPlace =
  /** On `origin` (null: where the launch's own URLs say). */
  | { kind: 'here'; origin: string | null }
  /** Not at this address of the portal: the browser would refuse the frames; `address` is the one to use. */
  | { kind: 'elsewhere'; address: string }

/** Where content plays for a page of `portalOrigin`, as the registry's `content` says. */
export function contentPlaceOf(placement: ContentPlacement | undefined, portalOrigin: string): ContentPlace {
  if (!placement) return { kind: 'here', origin: null }
  if (!placement.portalOrigins.includes(portalOrigin)) return { kind: 'elsewhere', address: placement.portalOrigins[0]! }
  return { kind: 'here', origin: placement.origin }
}

/** Where content plays for this page (the shell has fetched the registry already); where the launch says when it cannot tell. */
export const fetchContentPlace = (): Promise<ContentPlace> =>
  fetchRegistry().then(
    (registry) => contentPlaceOf(registry.content, window.location.origin),
    (): ContentPlace => ({ kind: 'here', origin: null }),
  )

/**
 * A launch's URL (learning names the content origin of the portal's first address) on the content
 * origin of this page: the same path, query and fragment.
 */
export function onContentOrigin(url: string, origin: string | null): string {
  if (!origin) return url
  try {
    const u = new URL(url, origin)
    return `${origin}${u.pathname}${u.search}${u.hash}`
  } catch {
    return url
  }
}
