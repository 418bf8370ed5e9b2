import type { ScormLaunch } from '@portal/contracts'
import { z } from 'zod'
import { connect, fromFrame, isPlayerHello, type PlayerEvent, type ViewerCommand, type WindowMessage } from '../player/index.ts'

/*
 * The viewer's end of the channel to the content player (see player/protocol.ts). The player runs
 * on the content origin, which it shares with the content: every event is checked here as
 * untrusted input, and none does more than report on this module.
 */

const text = (max: number) => z.string().max(max)
const nullableText = (max: number) => text(max).nullable()
const NavRequestSchema = z.union([
  z.object({ kind: z.enum(['continue', 'previous', 'exit', 'exitAll', 'abandon', 'abandonAll', 'suspendAll']) }),
  z.object({ kind: z.enum(['choice', 'jump']), target: text(255) }),
])
const StatusSchema = z.object({
  lessonStatus: nullableText(100),
  completionStatus: nullableText(100),
  successStatus: nullableText(100),
  scoreRaw: z.number().nullable(),
  scoreScaled: z.number().nullable(),
  progressMeasure: z.number().nullable(),
})
const FlowButtonSchema = z.object({ shown: z.boolean(), enabled: z.boolean(), reason: nullableText(500) })
const ItemAccessSchema = z.union([
  z.object({ kind: z.enum(['open', 'hidden']) }),
  z.object({ kind: z.literal('available'), via: z.literal('continue').optional() }),
  z.object({ kind: z.literal('disabled'), reason: text(500) }),
])
const ViewSchema = z.object({
  delivery: z.number().int().min(0),
  current: nullableText(255),
  href: nullableText(4000),
  idle: z.enum(['exited', 'suspended', 'ended', 'unavailable']).nullable(),
  unloading: z.boolean(),
  notice: nullableText(500),
  access: z.record(text(255), ItemAccessSchema).refine((a) => Object.keys(a).length <= 10_000),
  previous: FlowButtonSchema,
  continue: FlowButtonSchema,
})

/** Every event the viewer takes from the player, as the player sends it. */
export const PlayerEventSchema: z.ZodType<PlayerEvent> = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready') }),
  z.object({ t: z.literal('failed'), message: text(500) }),
  z.object({ t: z.literal('activity') }),
  z.object({ t: z.literal('initialize') }),
  z.object({ t: z.literal('status'), status: StatusSchema }),
  z.object({ t: z.literal('finish'), itemId: text(255), status: StatusSchema, navRequest: NavRequestSchema.nullable() }),
  z.object({ t: z.literal('root-done'), atFinish: z.boolean() }),
  z.object({ t: z.literal('view'), view: ViewSchema }),
  z.object({ t: z.literal('commit-error') }),
  z.object({ t: z.literal('frame-load'), count: z.number().int().min(1) }),
  z.object({ t: z.literal('interaction') }),
  z.object({ t: z.literal('urls'), urls: z.array(text(4000)).max(20) }),
  z.object({ t: z.literal('content-message'), data: z.unknown() }),
  z.object({ t: z.literal('closed') }),
]) as z.ZodType<PlayerEvent>

/** The origin a launch's content plays on; null when it would be the portal's own (content must never run as the portal). */
export const contentOriginOf = (launch: Pick<ScormLaunch, 'playerUrl'>, portalOrigin: string): string | null => {
  let origin: string
  try {
    origin = new URL(launch.playerUrl, portalOrigin).origin
  } catch {
    return null
  }
  return origin === portalOrigin || origin === 'null' ? null : origin
}

/** How long the player has to answer its first `hello` before the viewer gives up. */
export const PLAYER_START_TIMEOUT_MS = 20_000
/** How long closing waits for the player's last commit. */
export const PLAYER_CLOSE_TIMEOUT_MS = 5_000

type WindowLike = Pick<Window, 'addEventListener' | 'removeEventListener'>

export interface PlayerConnectionOptions {
  /** The portal's window (the player's hello arrives there). */
  win: WindowLike
  /** The player's frame. */
  frame: () => HTMLIFrameElement | null
  /** The origin the player and the content are served from: never the portal's. */
  contentOrigin: string
  launch: ScormLaunch
  onEvent(event: PlayerEvent): void
  /** The player did not start (no hello in time) or could not load its runtime. */
  onFailed(message: string): void
  startTimeoutMs?: number
  /** Tests: setTimeout/clearTimeout. */
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void }
}

/**
 * One player's channel: takes its hello (from its frame and the content origin only), hands it
 * the launch, passes its checked events on, and sends commands (queued until connected).
 */
export class PlayerConnection {
  private readonly opts: PlayerConnectionOptions
  private readonly timers: NonNullable<PlayerConnectionOptions['timers']>
  private port: MessagePort | null = null
  private queued: ViewerCommand[] = []
  private startTimer: unknown
  private closing: Promise<void> | null = null
  private closedSignal: (() => void) | null = null
  private disposed = false

  constructor(opts: PlayerConnectionOptions) {
    this.opts = opts
    this.timers = opts.timers ?? { setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms), clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>) }
    opts.win.addEventListener('message', this.onWindowMessage)
    this.startTimer = this.timers.setTimeout(() => {
      if (!this.port && !this.disposed) opts.onFailed('Failed to initialize SCORM')
    }, opts.startTimeoutMs ?? PLAYER_START_TIMEOUT_MS)
  }

  get connected(): boolean {
    return this.port !== null
  }

  private readonly onWindowMessage = (e: Event) => {
    const m = e as unknown as WindowMessage
    const frame = this.opts.frame()
    if (this.disposed || !frame || m.origin !== this.opts.contentOrigin) return
    const player = frame.contentWindow
    if (isPlayerHello(m, player, this.opts.contentOrigin)) {
      if (!this.port && player) this.connect(player)
      return
    }
    // Content that posts to the top window instead of its parent: the same signals.
    if (fromFrame(m.source, frame)) this.opts.onEvent({ t: 'content-message', data: m.data })
  }

  private connect(player: Window): void {
    this.timers.clearTimeout(this.startTimer)
    const channel = new MessageChannel()
    channel.port1.onmessage = (m: MessageEvent) => this.receive(m.data)
    player.postMessage(connect(), this.opts.contentOrigin, [channel.port2])
    this.port = channel.port1
    this.port.postMessage({ t: 'init', launch: this.opts.launch } satisfies ViewerCommand)
    for (const cmd of this.queued.splice(0)) this.port.postMessage(cmd)
  }

  private receive(data: unknown): void {
    if (this.disposed) return
    const parsed = PlayerEventSchema.safeParse(data)
    if (!parsed.success) return
    const event = parsed.data
    if (event.t === 'closed') return this.closedSignal?.()
    if (event.t === 'failed') return this.opts.onFailed(event.message)
    this.opts.onEvent(event)
  }

  /** Sends a command now, or once the player is connected. */
  send(cmd: ViewerCommand): void {
    if (this.disposed) return
    if (this.port) this.port.postMessage(cmd)
    else this.queued.push(cmd)
  }

  /**
   * Asks the player to end the SCO as a page leave would and waits for its answer (its last commit
   * is then on its way), at most `timeoutMs`. Resolves at once when no player is connected.
   */
  close(timeoutMs = PLAYER_CLOSE_TIMEOUT_MS): Promise<void> {
    if (!this.port || this.disposed) return Promise.resolve()
    this.closing ??= new Promise<void>((resolve) => {
      const timer = this.timers.setTimeout(() => done(), timeoutMs)
      const done = () => {
        this.timers.clearTimeout(timer)
        this.closedSignal = null
        resolve()
      }
      this.closedSignal = done
      this.port?.postMessage({ t: 'close' } satisfies ViewerCommand)
    })
    return this.closing
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.timers.clearTimeout(this.startTimer)
    this.opts.win.removeEventListener('message', this.onWindowMessage)
    this.closedSignal?.()
    this.port?.close()
    this.port = null
  }
}
