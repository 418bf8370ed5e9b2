/**
 * `fetchLater` (Chromium 135+): a request the browser itself holds and sends when the document goes
 * away — the tab closed, the frame removed, the renderer busy or killed — with no script running
 * then. The player frame's own pagehide runs only if its process gets to it in time: Chromium does
 * not wait long for an out-of-process frame (the player is on the content origin) when a tab closes.
 */
export type FetchLater = (input: string, init: RequestInit & { activateAfter?: number }) => { readonly activated: boolean }

const browserFetchLater = (): FetchLater | undefined => {
  const f = (globalThis as { fetchLater?: FetchLater }).fetchLater
  return typeof f === 'function' ? (input, init) => f(input, init) : undefined
}

/**
 * One standing commit per session, sent by the browser when the player's document goes away:
 * replaced whenever the session's data changes, dropped once a final commit went out some other
 * way. Browsers without `fetchLater` (and a body over the frame's quota) have none: the dismissal
 * beacon of page-hide.ts is then all there is.
 */
export class DeferredCommit {
  private readonly url: string
  private readonly fetchLater: FetchLater | undefined
  private controller: AbortController | null = null
  private result: { readonly activated: boolean } | null = null
  private body: string | null = null

  /** `fetchLater`: the browser's when undefined; null for none. */
  constructor(url: string, fetchLater?: FetchLater | null) {
    this.url = url
    this.fetchLater = fetchLater === undefined ? browserFetchLater() : (fetchLater ?? undefined)
  }

  /** Whether the browser can hold a commit at all. */
  get available(): boolean {
    return this.fetchLater !== undefined
  }

  /** The body the browser holds and has not sent yet, or null. */
  get pending(): string | null {
    return this.controller && !this.result?.activated ? this.body : null
  }

  /** Has the browser hold `body` instead of the one before; false when it refuses (no API, over the quota). */
  arm(body: string): boolean {
    if (this.pending === body) return true
    this.disarm()
    if (!this.fetchLater) return false
    const controller = new AbortController()
    try {
      // text/plain like the beacons: the commit route takes it without a preflight.
      this.result = this.fetchLater(this.url, { method: 'POST', headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, body, signal: controller.signal })
    } catch {
      return false // QuotaExceededError: the frame's share of the deferred-fetch quota is too small for it
    }
    this.controller = controller
    this.body = body
    return true
  }

  /** Withdraws the held commit (one that went out already, e.g. on entering the back/forward cache, stays sent). */
  disarm(): void {
    if (this.controller && !this.result?.activated) this.controller.abort()
    this.controller = null
    this.result = null
    this.body = null
  }
}
