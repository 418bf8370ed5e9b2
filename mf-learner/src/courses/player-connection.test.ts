import { afterEach, describe, expect, it, vi } from 'vitest'
import { connect, hello, type PlayerEvent, type ViewerCommand } from '../player/index.ts'
import { launchOf } from '../test-support/index.ts'
import { contentOriginOf, PlayerConnection } from './player-connection.ts'

const CONTENT = 'http://localhost:8081'
const tick = () => new Promise((r) => setTimeout(r, 5))

/** The portal's window, the player frame and, as the test plays the player, its end of the channel. */
function setup(over: { startTimeoutMs?: number } = {}) {
  const portal = new EventTarget() as EventTarget & { parent?: unknown }
  portal.parent = portal
  const posted: { message: unknown; origin: string; ports: MessagePort[] }[] = []
  const player = {
    parent: portal,
    postMessage: vi.fn((message: unknown, origin: string, transfer: MessagePort[] = []) => void posted.push({ message, origin, ports: transfer })),
  }
  const sco = { parent: player }
  const frame = { contentWindow: player } as unknown as HTMLIFrameElement
  const events: PlayerEvent[] = []
  const failures: string[] = []
  const launch = launchOf()
  const conn = new PlayerConnection({
    win: portal as unknown as Window,
    frame: () => frame,
    contentOrigin: CONTENT,
    launch,
    onEvent: (e) => events.push(e),
    onFailed: (m) => failures.push(m),
    startTimeoutMs: over.startTimeoutMs,
  })
  const commands: ViewerCommand[] = []
  let playerPort: MessagePort | null = null
  /** A window message arriving at the portal. */
  const arrive = (data: unknown, origin: string, source: unknown) => portal.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  /** The player says hello and takes the port it is given. */
  const handshake = async () => {
    arrive(hello(), CONTENT, player)
    const p = posted.at(-1)?.ports[0]
    if (!p) throw new Error('no port handed to the player')
    playerPort = p
    p.onmessage = (m: MessageEvent) => void commands.push(m.data as ViewerCommand)
    await tick()
  }
  const emit = async (event: unknown) => {
    playerPort!.postMessage(event)
    await tick()
  }
  cleanups.push(() => {
    conn.dispose()
    playerPort?.close()
  })
  return { conn, player, sco, posted, events, failures, commands, arrive, handshake, emit, launch }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
  vi.useRealTimers()
})

describe('the viewer’s channel to the content player', () => {
  it('answers a hello from its player on the content origin with a port addressed to that origin, then sends the launch before anything else', async () => {
    const t = setup()
    t.conn.send({ t: 'open', itemId: 'playing' })
    await t.handshake()
    expect(t.posted).toHaveLength(1)
    expect(t.posted[0]).toMatchObject({ message: connect(), origin: CONTENT })
    expect(t.posted[0]!.ports).toHaveLength(1)
    expect(t.commands).toEqual([
      { t: 'init', launch: t.launch },
      { t: 'open', itemId: 'playing' },
    ])
    t.conn.send({ t: 'resume' })
    await tick()
    expect(t.commands.at(-1)).toEqual({ t: 'resume' })
  })

  it('ignores a hello from another origin, from the content inside the player or from another window, and a second hello', async () => {
    const t = setup()
    t.arrive(hello(), 'http://localhost:8080', t.player)
    t.arrive(hello(), 'https://evil.example', t.player)
    t.arrive(hello(), CONTENT, t.sco)
    t.arrive(hello(), CONTENT, {})
    expect(t.player.postMessage).not.toHaveBeenCalled()
    expect(t.conn.connected).toBe(false)
    await t.handshake()
    t.arrive(hello(), CONTENT, t.player)
    expect(t.player.postMessage).toHaveBeenCalledTimes(1)
  })

  it('passes on the player’s events that have the expected shape, and drops the others', async () => {
    const t = setup()
    await t.handshake()
    const status = { lessonStatus: 'completed', completionStatus: null, successStatus: null, scoreRaw: 80, scoreScaled: null, progressMeasure: null }
    await t.emit({ t: 'status', status })
    await t.emit({ t: 'finish', itemId: 'playing', status, navRequest: { kind: 'choice', target: 'etiquette' } })
    await t.emit({ t: 'frame-load', count: 2 })
    const flow = { shown: true, enabled: true, reason: null }
    const view = {
      delivery: 1,
      current: 'playing',
      href: '/api/content/tok/playing.html',
      idle: null,
      unloading: false,
      notice: null,
      // the lesson Continue opens is offered in the tree as a continue (issue 17 item 8)
      access: { playing: { kind: 'open' }, etiquette: { kind: 'available', via: 'continue' } },
      previous: flow,
      continue: flow,
    }
    await t.emit({ t: 'view', view })
    for (const bad of [
      { t: 'status', status: { lessonStatus: 'completed' } },
      { t: 'frame-load', count: 'two' },
      { t: 'urls', urls: Array.from({ length: 21 }, () => 'x') },
      { t: 'finish', itemId: 'playing', status, navRequest: { kind: 'fly' } },
      { t: 'token', value: 'stolen' },
      'scorm-module-completed',
      null,
    ])
      await t.emit(bad)
    expect(t.events).toEqual([
      { t: 'status', status },
      { t: 'finish', itemId: 'playing', status, navRequest: { kind: 'choice', target: 'etiquette' } },
      { t: 'frame-load', count: 2 },
      { t: 'view', view },
    ])
  })

  it('reads what content posts to the top window as content messages, from windows inside the player on the content origin only', async () => {
    const t = setup()
    await t.handshake()
    t.arrive('scorm-module-completed', CONTENT, t.sco)
    t.arrive('scorm-module-completed', 'https://evil.example', t.sco)
    t.arrive('scorm-module-completed', CONTENT, {})
    expect(t.events).toEqual([{ t: 'content-message', data: 'scorm-module-completed' }])
  })

  it('reports a player that never says hello, or cannot load its runtime', async () => {
    vi.useFakeTimers()
    const silent = setup({ startTimeoutMs: 1_000 })
    vi.advanceTimersByTime(1_000)
    expect(silent.failures).toEqual(['Failed to initialize SCORM'])
    vi.useRealTimers()
    const t = setup()
    await t.handshake()
    await t.emit({ t: 'failed', message: 'Failed to initialize SCORM' })
    expect(t.failures).toEqual(['Failed to initialize SCORM'])
    expect(t.events).toEqual([])
  })

  it('closes by asking the player and waiting for its answer, or for the time limit', async () => {
    const t = setup()
    await t.handshake()
    let closed = false
    const closing = t.conn.close().then(() => (closed = true))
    await tick()
    expect(t.commands.at(-1)).toEqual({ t: 'close' })
    expect(closed).toBe(false)
    await t.emit({ t: 'closed' })
    await closing
    expect(closed).toBe(true)

    const slow = setup()
    await slow.handshake()
    const started = Date.now()
    await slow.conn.close(50)
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    // Nothing to wait for before the player is connected.
    await setup().conn.close()
  })

  it('hears nothing more once disposed', async () => {
    const t = setup()
    await t.handshake()
    t.conn.dispose()
    await t.emit({ t: 'interaction' })
    t.arrive('scorm-module-completed', CONTENT, t.sco)
    expect(t.events).toEqual([])
  })
})

describe('the content origin of a launch', () => {
  it('is the player’s origin, and never the portal’s own', () => {
    const portal = 'http://localhost:8080'
    expect(contentOriginOf({ playerUrl: 'http://localhost:8081/player/' }, portal)).toBe('http://localhost:8081')
    expect(contentOriginOf({ playerUrl: 'https://content.example.com/player/' }, 'https://portal.example.com')).toBe('https://content.example.com')
    // a path (no content origin configured) or the portal's own origin: content would run as the portal
    expect(contentOriginOf({ playerUrl: '/player/' }, portal)).toBeNull()
    expect(contentOriginOf({ playerUrl: 'http://localhost:8080/player/' }, portal)).toBeNull()
    expect(contentOriginOf({ playerUrl: 'data:text/html,x' }, portal)).toBeNull()
  })
})
