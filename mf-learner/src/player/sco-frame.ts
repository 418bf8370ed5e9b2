import type { ScoFrameHost } from './player.ts'
import { forwardable, fromFrame, type PlayerEvent } from './protocol.ts'

/*
 * The SCO frame inside the player (both on the content origin): the player reads what the viewer
 * no longer can from across origins — the pages the SCO shows, the learner's interactions with
 * it, the messages it posts — and passes them on.
 */

const hrefOf = (w: Window | null | undefined): string | null => {
  try {
    return w?.location.href ?? null
  } catch {
    return null // another origin (an allowed embed): nothing to read
  }
}

/** The URL shown in a frame, or null (nothing loaded yet, about:blank, another origin). */
export const frameHref = (frame: HTMLIFrameElement | null): string | null => {
  const href = hrefOf(frame?.contentWindow)
  return href && href !== 'about:blank' ? href : null
}

/** URLs of a frame and of the frames inside it (content often pages inside an inner frame). */
export const frameUrls = (frame: HTMLIFrameElement | null): string[] => {
  const top = frameHref(frame)
  if (!top) return []
  const urls = [top]
  try {
    const doc = frame?.contentDocument
    for (const inner of Array.from(doc?.querySelectorAll('iframe, frame') ?? [])) {
      const href = hrefOf((inner as HTMLIFrameElement).contentWindow)
      if (href && href !== 'about:blank') urls.push(href)
    }
  } catch {
    // unreadable inner frames are skipped
  }
  return urls
}

/**
 * Counts the learner's interactions inside the frame's document (clicks, keys, touches, input;
 * scrolling at most once a second). Call again after every load; returns a remover.
 */
export const watchInteractions = (frame: HTMLIFrameElement | null, onInteraction: () => void): (() => void) => {
  let doc: Document | null = null
  try {
    doc = frame?.contentDocument ?? null
  } catch {
    doc = null
  }
  if (!doc) return () => undefined
  let lastScroll = 0
  const onEvent = (e: Event) => {
    if (!e.isTrusted) return
    if (e.type === 'scroll') {
      const now = Date.now()
      if (now - lastScroll < 1_000) return
      lastScroll = now
    }
    onInteraction()
  }
  const types = ['click', 'keydown', 'touchstart', 'input', 'scroll'] as const
  for (const t of types) doc.addEventListener(t, onEvent, { capture: true, passive: true })
  return () => {
    for (const t of types) doc?.removeEventListener(t, onEvent, { capture: true })
  }
}

/** How long a SCO may take to leave (its beforeunload and unload handlers, a dialog) before its frame is removed anyway. */
export const UNLOAD_TIMEOUT_MS = 3_000
/** How often the frame's URLs are read. */
const URL_CHECK_MS = 1_000

interface Shown {
  frame: HTMLIFrameElement
  loads: number
  unwatch: () => void
  /** While it unloads: resolves once it is gone. */
  leaving: Promise<void> | null
  /** Ends the unload at once (the frame is removed). */
  gone: (() => void) | null
}

/** The SCO frame of the player in `container`; events go to `send`. */
export function createScoFrameHost(opts: { win: Window; container: HTMLElement; send(e: PlayerEvent): void }): ScoFrameHost {
  const { win, container, send } = opts
  let current: Shown | null = null
  let lastUrls = ''

  const reportUrls = () => {
    const urls = current && !current.leaving ? frameUrls(current.frame) : []
    const key = urls.join('\n')
    if (key === lastUrls) return
    lastUrls = key
    if (urls.length) send({ t: 'urls', urls })
  }
  win.setInterval(reportUrls, URL_CHECK_MS)

  // Messages the content posts to its parent (learner §4: completion, progress, activity).
  win.addEventListener('message', (e: MessageEvent) => {
    if (e.origin !== win.location.origin || !current || current.leaving || !fromFrame(e.source, current.frame)) return
    const data = forwardable(e.data)
    if (data !== undefined) send({ t: 'content-message', data })
  })

  const remove = (shown: Shown) => {
    shown.unwatch()
    shown.frame.remove()
    if (current === shown) current = null
    shown.gone?.()
  }

  return {
    show(href, title) {
      if (current) remove(current)
      const frame = win.document.createElement('iframe')
      const shown: Shown = { frame, loads: 0, unwatch: () => undefined, leaving: null, gone: null }
      current = shown
      frame.id = 'sco'
      frame.title = title
      frame.allow = 'fullscreen; autoplay'
      frame.style.cssText = 'display:block;width:100%;height:100%;border:0'
      frame.addEventListener('load', () => {
        if (shown.leaving || !frameHref(frame)) return
        shown.loads += 1
        shown.unwatch()
        shown.unwatch = watchInteractions(frame, () => send({ t: 'interaction' }))
        send({ t: 'frame-load', count: shown.loads })
        reportUrls()
      })
      container.appendChild(frame)
      frame.src = href
    },

    unload() {
      const shown = current
      if (!shown) return Promise.resolve()
      shown.leaving ??= new Promise<void>((resolve) => {
        const timer = win.setTimeout(() => remove(shown), UNLOAD_TIMEOUT_MS)
        shown.gone = () => {
          win.clearTimeout(timer)
          shown.gone = null
          reportUrls()
          resolve()
        }
        shown.unwatch()
        shown.frame.addEventListener('load', () => remove(shown), { once: true })
        // A navigation runs the content's beforeunload and unload handlers (removing the frame runs only unload).
        try {
          shown.frame.contentWindow?.location.replace('about:blank')
        } catch {
          shown.frame.src = 'about:blank'
        }
      })
      return shown.leaving
    },
  }
}
