import { describe, expect, it } from 'vitest'
import { BRIDGE, connect, CONTENT_MESSAGE_MAX_CHARS, forwardable, fromFrame, hello, isPlayerHello, viewerPort, type WindowMessage } from './protocol.ts'

/** Window stand-ins: only identity and `parent` matter to the checks. */
const win = (parent?: object) => {
  const w: Record<string, unknown> = {}
  w.parent = parent ?? w
  return w as unknown as Window
}
const CONTENT = 'http://localhost:8081'
const PORTAL = 'http://localhost:8080'
const port = {} as MessagePort

describe('the viewer takes a player hello', () => {
  const portal = win()
  const player = win(portal)
  const sco = win(player)
  const msg = (over: Partial<WindowMessage>): WindowMessage => ({ data: hello(), origin: CONTENT, source: player, ...over })

  it('from its player frame’s own window on the content origin', () => {
    expect(isPlayerHello(msg({}), player, CONTENT)).toBe(true)
  })
  it('and from nothing else: another origin, the content inside the player, another window, another message', () => {
    expect(isPlayerHello(msg({ origin: PORTAL }), player, CONTENT), 'the portal’s origin').toBe(false)
    expect(isPlayerHello(msg({ origin: 'https://evil.example' }), player, CONTENT), 'a foreign origin').toBe(false)
    expect(isPlayerHello(msg({ source: sco }), player, CONTENT), 'the SCO inside the player').toBe(false)
    expect(isPlayerHello(msg({ source: win() }), player, CONTENT), 'another window').toBe(false)
    expect(isPlayerHello(msg({}), null, CONTENT), 'no player frame').toBe(false)
    expect(isPlayerHello(msg({ data: connect() }), player, CONTENT), 'a connect').toBe(false)
    expect(isPlayerHello(msg({ data: { ...hello(), v: 2 } }), player, CONTENT), 'another version').toBe(false)
    expect(isPlayerHello(msg({ data: 'hello' }), player, CONTENT), 'a string').toBe(false)
    expect(isPlayerHello(msg({ data: { bridge: BRIDGE } }), player, CONTENT), 'no type').toBe(false)
  })
})

describe('the player takes the viewer’s port', () => {
  const portal = win()
  const player = win(portal)
  const msg = (over: Partial<WindowMessage>): WindowMessage => ({ data: connect(), origin: PORTAL, source: portal, ports: [port], ...over })

  it('from its parent window on a portal origin, with exactly one port', () => {
    expect(viewerPort(msg({}), portal, player, [PORTAL, 'http://127.0.0.1:8080'])).toBe(port)
    expect(viewerPort(msg({ origin: 'http://127.0.0.1:8080' }), portal, player, [PORTAL, 'http://127.0.0.1:8080'])).toBe(port)
  })
  it('and from nothing else', () => {
    expect(viewerPort(msg({ origin: CONTENT }), portal, player, [PORTAL]), 'its own origin (the content)').toBeNull()
    expect(viewerPort(msg({ origin: 'https://evil.example' }), portal, player, [PORTAL]), 'a foreign page framing it').toBeNull()
    expect(viewerPort(msg({ source: win(player) }), portal, player, [PORTAL]), 'a frame inside it').toBeNull()
    expect(viewerPort(msg({ ports: [] }), portal, player, [PORTAL]), 'no port').toBeNull()
    expect(viewerPort(msg({ ports: [port, port] }), portal, player, [PORTAL]), 'two ports').toBeNull()
    expect(viewerPort(msg({ data: hello() }), portal, player, [PORTAL]), 'a hello').toBeNull()
    expect(viewerPort(msg({}), portal, player, []), 'no portal origin configured').toBeNull()
    const alone = win()
    expect(viewerPort(msg({ source: alone }), alone, alone, [PORTAL]), 'opened as a page of its own').toBeNull()
  })
})

describe('messages from inside a frame', () => {
  it('come from its window or a window nested in it, up to a few levels', () => {
    const top = win()
    const player = win(top)
    const sco = win(player)
    const inner = win(sco)
    const frame = { contentWindow: player } as HTMLIFrameElement
    expect(fromFrame(player, frame)).toBe(true)
    expect(fromFrame(inner, frame)).toBe(true)
    expect(fromFrame(top, frame)).toBe(false)
    expect(fromFrame(win(), frame)).toBe(false)
    expect(fromFrame(null, frame)).toBe(false)
    expect(fromFrame(sco, null)).toBe(false)
  })
  it('stop at a window whose parent cannot be read', () => {
    const locked = {} as Record<string, unknown>
    Object.defineProperty(locked, 'parent', {
      get() {
        throw new Error('SecurityError')
      },
    })
    expect(fromFrame(locked as unknown as Window, { contentWindow: win() } as HTMLIFrameElement)).toBe(false)
  })
})

describe('content messages passed on by the player', () => {
  it('are strings and plain data of a bounded size, copied', () => {
    expect(forwardable('scorm-module-completed')).toBe('scorm-module-completed')
    const data = { type: 'progress', progress: 40 }
    const out = forwardable(data)
    expect(out).toEqual(data)
    expect(out).not.toBe(data)
    expect(forwardable('x'.repeat(CONTENT_MESSAGE_MAX_CHARS + 1))).toBeUndefined()
    expect(forwardable({ big: 'x'.repeat(CONTENT_MESSAGE_MAX_CHARS) })).toBeUndefined()
    expect(forwardable(42)).toBeUndefined()
    expect(forwardable(null)).toBeUndefined()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(forwardable(cyclic)).toBeUndefined()
  })
})
