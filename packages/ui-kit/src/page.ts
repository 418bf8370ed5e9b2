import { useEffect, useRef } from 'react'

/** The product name every document title ends with. */
export const PRODUCT_TITLE = 'Learning Portal'

/** A route's document title: "Technician Profile · Learning Portal". */
export const documentTitle = (page: string): string => (page ? `${page} · ${PRODUCT_TITLE}` : PRODUCT_TITLE)

/**
 * A routed page's own document title, and keyboard focus on its heading when it opens (a screen
 * reader then reads where the user landed instead of starting again from <body>). Give the
 * returned ref to the page's h1, which needs tabIndex={-1}.
 */
export function usePageHeading<T extends HTMLElement = HTMLHeadingElement>(title: string) {
  const ref = useRef<T>(null)
  useEffect(() => {
    document.title = documentTitle(title)
  }, [title])
  // Leaving the page: a route that sets no title of its own must not keep this one.
  useEffect(() => () => void (document.title = PRODUCT_TITLE), [])
  useEffect(() => {
    ref.current?.focus({ preventScroll: true })
  }, [])
  return ref
}
