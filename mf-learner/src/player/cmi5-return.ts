/*
 * The content player's page as the returnURL of cmi5 AUs (issue 26, decision 0053): the LMS's
 * LaunchData names `{contentOrigin}/player/?cmi5-return={moduleId}`, where an AU goes after
 * Terminated. In the viewer's frame or in the AU's own window, this page tells the course viewer
 * (its parent, or the window that opened it) that the AU has ended, addressed to each portal origin
 * it trusts (a message to another origin is dropped by the browser), and says what happened.
 */

/** The message the viewer takes (mf-learner/src/courses/cmi5.ts reads it). */
export const CMI5_RETURN_TYPE = 'portal:cmi5-return'

export const CMI5_RETURN_TEXT = 'You have left this unit. You can close this window.'

/** The module id of a return page's query, or null when the page is not one. */
export function cmi5ReturnModule(search: string): number | null {
  const raw = new URLSearchParams(search).get('cmi5-return')
  if (raw === null || !/^[1-9]\d{0,9}$/.test(raw)) return null
  const id = Number(raw)
  return Number.isSafeInteger(id) ? id : null
}

/** What the return page uses of its window. */
export interface ReturnWindow {
  parent: Pick<Window, 'postMessage'>
  opener: unknown
  location: Pick<Location, 'search'>
}

/**
 * When the page is a return page: posts `{ type: 'portal:cmi5-return', moduleId }` to its parent
 * (when framed) and its opener (if any), for each portal origin, shows the text in `container`, and
 * answers true; else false (the page is the SCORM player).
 */
export function runCmi5Return(win: ReturnWindow, portalOrigins: readonly string[], container: HTMLElement): boolean {
  if (!new URLSearchParams(win.location.search).has('cmi5-return')) return false
  container.textContent = CMI5_RETURN_TEXT
  const moduleId = cmi5ReturnModule(win.location.search)
  if (moduleId === null) return true
  const message = { type: CMI5_RETURN_TYPE, moduleId }
  const opener = win.opener as Pick<Window, 'postMessage'> | null
  const targets = [(win.parent as unknown) !== win ? win.parent : null, opener].filter((t) => t !== null && t !== undefined)
  for (const target of targets) {
    for (const origin of portalOrigins) {
      try {
        target.postMessage(message, origin)
      } catch {
        // A closed opener, or an origin the browser will not parse: the others still get it.
      }
    }
  }
  return true
}
