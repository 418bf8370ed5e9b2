import type { ScormLaunch } from '@portal/contracts'
import type { NavRequest, RuntimeStatus, SequencingView } from '../runtime/index.ts'

/*
 * How the course viewer (the portal's origin) and the content player (the content origin, decision
 * "content-origin") talk. Only postMessage crosses between the two:
 *
 * 1. The player, once loaded, says `hello` to its parent window, addressed to each portal origin
 *    it was configured with (a message to another origin is dropped by the browser).
 * 2. The viewer takes a `hello` only from its own player frame's window and the content origin,
 *    and answers `connect` with one end of a MessageChannel, addressed to the content origin.
 * 3. The player takes a `connect` only from its parent window and a portal origin, once.
 * 4. From then on both talk over the channel: the viewer sends commands (`init` with the launch
 *    first), the player sends events. The viewer checks every event's shape: the player shares its
 *    origin with the content, so hostile content can speak for it, and the viewer grants nothing an
 *    event asks for beyond this module's own progress (which SCORM content reports anyway).
 */

/** Marks the window messages of the handshake. */
export const BRIDGE = 'portal-content-player'
export const BRIDGE_VERSION = 1

export interface HandshakeMessage {
  bridge: typeof BRIDGE
  v: typeof BRIDGE_VERSION
  t: 'hello' | 'connect'
}

export const hello = (): HandshakeMessage => ({ bridge: BRIDGE, v: BRIDGE_VERSION, t: 'hello' })
export const connect = (): HandshakeMessage => ({ bridge: BRIDGE, v: BRIDGE_VERSION, t: 'connect' })

const isHandshake = (data: unknown, t: HandshakeMessage['t']): boolean => {
  if (!data || typeof data !== 'object') return false
  const m = data as Record<string, unknown>
  return m.bridge === BRIDGE && m.v === BRIDGE_VERSION && m.t === t
}

/** What a window message event carries that the checks read. */
export interface WindowMessage {
  data: unknown
  origin: string
  source: MessageEventSource | null
  ports?: readonly MessagePort[]
}

/** The viewer: a `hello` from its player frame's own window, on the content origin. */
export function isPlayerHello(e: WindowMessage, playerWindow: Window | null | undefined, contentOrigin: string): boolean {
  return !!playerWindow && e.source === playerWindow && e.origin === contentOrigin && isHandshake(e.data, 'hello')
}

/** The player: the port of a `connect` from its parent window on one of the portal's origins, else null. */
export function viewerPort(e: WindowMessage, parent: Window, self: Window, portalOrigins: readonly string[]): MessagePort | null {
  if (parent === self || e.source !== parent || !portalOrigins.includes(e.origin)) return null
  if (!isHandshake(e.data, 'connect') || e.ports?.length !== 1) return null
  return e.ports[0] ?? null
}

/** Whether `source` is the window of `frame` or of a frame inside it (messages from content). */
export function fromFrame(source: MessageEventSource | null, frame: HTMLIFrameElement | null): boolean {
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

/** The viewer's commands. */
export type ViewerCommand =
  /** First: the launch to play (the runtime build it needs is loaded, then `ready` or `failed`). */
  | { t: 'init'; launch: ScormLaunch }
  /** Packages without sequencing: show this SCO (its session starts), or none. */
  | { t: 'open'; itemId: string | null }
  /** Sequenced packages: the learner's navigation (lesson tree, Previous, Continue). */
  | { t: 'navigate'; request: NavRequest }
  /** Sequenced packages: start again after the lesson was left. */
  | { t: 'resume' }
  /** The viewer is closing: end the SCO as a page leave would (beforeunload, unload), commit, answer `closed`. */
  | { t: 'close' }

/** The player's events. */
export type PlayerEvent =
  | { t: 'ready' }
  | { t: 'failed'; message: string }
  /** The open SCO called the API for the first time. */
  | { t: 'activity' }
  | { t: 'initialize' }
  /** The SCO's status after its latest successful Set (several Sets in a row give one event). */
  | { t: 'status'; status: RuntimeStatus }
  /** Packages without sequencing: the SCO finished (its navigation request, if any, is the viewer's to follow). */
  | { t: 'finish'; itemId: string; status: RuntimeStatus; navRequest: NavRequest | null }
  /** Sequenced packages: the root activity's rollup says completed or passed. */
  | { t: 'root-done'; atFinish: boolean }
  /** Sequenced packages: what to show. */
  | { t: 'view'; view: SequencingView }
  | { t: 'commit-error' }
  /** The SCO frame loaded a page: `count` loads of this SCO so far. */
  | { t: 'frame-load'; count: number }
  /** The learner clicked, typed, touched or scrolled in the SCO. */
  | { t: 'interaction' }
  /** The SCO frame's URL and those of the frames inside it. */
  | { t: 'urls'; urls: string[] }
  /** A message the content posted to the player (its parent). */
  | { t: 'content-message'; data: unknown }
  /** Answer to `close`. */
  | { t: 'closed' }

/** Content messages larger than this are not passed on. */
export const CONTENT_MESSAGE_MAX_CHARS = 10_000

/** A content message as the player passes it on: a string or plain JSON data, small; else undefined. */
export function forwardable(data: unknown): unknown {
  if (typeof data === 'string') return data.length <= CONTENT_MESSAGE_MAX_CHARS ? data : undefined
  if (!data || typeof data !== 'object') return undefined
  try {
    const json = JSON.stringify(data)
    return json.length <= CONTENT_MESSAGE_MAX_CHARS ? (JSON.parse(json) as unknown) : undefined
  } catch {
    return undefined
  }
}
