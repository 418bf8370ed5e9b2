import { documentTitle, focusPageHeadingWhenShown } from '@portal/ui-kit'
import { useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react'
import { useLocation } from 'react-router'

/**
 * A route's own document title ("Exam Results · Learning Portal"), set when it opens; a layout
 * effect, so it runs before the page's own effects, which may name the page more precisely.
 */
export const Titled = ({ title, children }: { title: string; children: ReactNode }) => {
  useLayoutEffect(() => {
    document.title = documentTitle(title)
  }, [title])
  return <>{children}</>
}

let stopWaiting = (): void => {}

/** Focus to the heading of the page in `main` once it is shown, instead of any wait still under way. */
const focusHeading = (main: HTMLElement | null, targetId?: string): void => {
  stopWaiting()
  stopWaiting = main ? focusPageHeadingWhenShown(main, targetId) : () => {}
}

const mainElement = () => document.querySelector<HTMLElement>('main')

/**
 * The remotes' `announcePage`: a view shown in place (an exam started, a course opened) titles the
 * document, and gets focus on its heading when the change dropped it to <body>.
 */
export const announcePage = (title: string): void => {
  document.title = documentTitle(title)
  const active = document.activeElement
  if (!active || active === document.body) focusHeading(mainElement())
}

/**
 * After every navigation (not the first load, which the browser announces with the document),
 * focus moves to the new page's heading, or to the section a `#fragment` names, once it is shown
 * (issue 15 item 4).
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>): void {
  const { key, hash } = useLocation()
  const shown = useRef(key)
  useEffect(() => {
    if (shown.current === key) return
    shown.current = key
    focusHeading(main.current, decodeURIComponent(hash.slice(1)))
    return () => stopWaiting()
  }, [key, hash, main])
}
