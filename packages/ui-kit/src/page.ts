import { useEffect, useRef } from 'react'

/** The product name every document title ends with. */
export const PRODUCT_TITLE = 'Learning Portal'

/** A route's document title: "Technician Profile · Learning Portal". */
export const documentTitle = (page: string): string => (page ? `${page} · ${PRODUCT_TITLE}` : PRODUCT_TITLE)

/** How long a page that is still loading may take to show its heading before focus stays where it is. */
export const HEADING_WAIT_MS = 10_000

/**
 * Puts keyboard focus on the page's main heading (the first h1 in `main`), or with `targetId` on
 * the heading of that section of the page (a `#fragment` link, scrolled into view), once it is
 * shown, so a screen reader reads where the user landed instead of starting again from <body>. A
 * page that already placed focus inside `main` itself (a dialog, a question) keeps it; a heading
 * that is not focusable becomes so (tabindex -1). Waits for a page still loading (a remote, its
 * data) up to `waitMs`; the returned function stops waiting (the user went on to another page).
 */
export function focusPageHeadingWhenShown(main: HTMLElement, targetId = '', waitMs = HEADING_WAIT_MS): () => void {
  const doc = main.ownerDocument
  const settled = (): boolean => {
    const active = doc.activeElement
    if (active && active !== doc.body && main.contains(active)) return true
    const section = targetId ? doc.getElementById(targetId) : null
    if (targetId && !section) return false
    const heading = section ? (section.matches('h1, h2, h3') ? section : (section.querySelector<HTMLElement>('h1, h2, h3') ?? section)) : main.querySelector<HTMLElement>('h1')
    if (!heading) return false
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
    heading.focus({ preventScroll: !section })
    return true
  }
  if (settled()) return () => {}
  const observer = new MutationObserver(() => {
    if (settled()) stop()
  })
  const timer = setTimeout(() => stop(), waitMs)
  const stop = () => {
    observer.disconnect()
    clearTimeout(timer)
  }
  observer.observe(main, { childList: true, subtree: true })
  return stop
}

/**
 * A routed page's own document title, more precise than its route's (the shell titles every route
 * before the page's effects run), and keyboard focus on its heading when it opens (a screen reader
 * then reads where the user landed instead of starting again from <body>). Give the returned ref
 * to the page's h1, which needs tabIndex={-1}.
 */
export function usePageHeading<T extends HTMLElement = HTMLHeadingElement>(title: string) {
  const ref = useRef<T>(null)
  useEffect(() => {
    document.title = documentTitle(title)
  }, [title])
  useEffect(() => {
    ref.current?.focus({ preventScroll: true })
  }, [])
  return ref
}
