/** Same-origin content frame helpers of the viewer (the SCO and PDF frames are served same-origin). */

const hrefOf = (w: Window | null | undefined): string | null => {
  try {
    return w?.location.href ?? null
  } catch {
    return null // another origin: nothing to read
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

/** Whether a message came from the frame or from a frame inside it. */
export const fromFrame = (source: MessageEventSource | null, frame: HTMLIFrameElement | null): boolean => {
  const target = frame?.contentWindow
  if (!source || !target) return false
  let w = source as Window
  for (let depth = 0; depth < 6; depth++) {
    if (w === target) return true
    try {
      if (!w.parent || w.parent === w) return false
      w = w.parent
    } catch {
      return false
    }
  }
  return false
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
