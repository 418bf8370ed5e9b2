// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { CMI5_RETURN_TEXT, cmi5ReturnModule, runCmi5Return, type ReturnWindow } from './cmi5-return.ts'

const PORTAL = ['http://localhost:8080', 'http://127.0.0.1:8080']

/** The return page's window: framed by the viewer (parent), or opened by it (opener), or alone. */
function pageWindow(search: string, { framed = false, opened = false } = {}) {
  const parent = { postMessage: vi.fn() }
  const opener = opened ? { postMessage: vi.fn() } : null
  const win: ReturnWindow & { parent: typeof parent } = { parent, opener, location: { search } }
  // An unframed page is its own parent.
  if (!framed) win.parent = win as unknown as typeof parent
  return { win, parent, opener }
}

describe('the content player as the returnURL of a cmi5 AU', () => {
  it('reads the module id of ?cmi5-return=, and nothing else', () => {
    expect(cmi5ReturnModule('?cmi5-return=42')).toBe(42)
    expect(cmi5ReturnModule('?x=1&cmi5-return=7')).toBe(7)
    for (const bad of ['', '?cmi5-return=', '?cmi5-return=0', '?cmi5-return=-3', '?cmi5-return=4.5', '?cmi5-return=abc', '?cmi5-return=99999999999'])
      expect(cmi5ReturnModule(bad)).toBeNull()
  })

  it('in the viewer’s frame: tells the parent, at each portal origin, and says the unit was left', () => {
    const { win, parent } = pageWindow('?cmi5-return=42', { framed: true })
    const container = document.createElement('div')
    expect(runCmi5Return(win, PORTAL, container)).toBe(true)
    expect(parent.postMessage.mock.calls).toEqual([
      [{ type: 'portal:cmi5-return', moduleId: 42 }, 'http://localhost:8080'],
      [{ type: 'portal:cmi5-return', moduleId: 42 }, 'http://127.0.0.1:8080'],
    ])
    expect(container.textContent).toBe(CMI5_RETURN_TEXT)
    expect(CMI5_RETURN_TEXT).toBe('You have left this unit. You can close this window.')
  })

  it('in the AU’s own window: tells the window that opened it', () => {
    const { win, opener } = pageWindow('?cmi5-return=42', { opened: true })
    const container = document.createElement('div')
    expect(runCmi5Return(win, PORTAL, container)).toBe(true)
    expect(opener!.postMessage.mock.calls.map((c) => c[1])).toEqual(PORTAL)
    expect(opener!.postMessage.mock.calls[0]![0]).toEqual({ type: 'portal:cmi5-return', moduleId: 42 })
    expect(container.textContent).toBe(CMI5_RETURN_TEXT)
  })

  it('still tells the others when one target throws (a closed opener)', () => {
    const { win, parent, opener } = pageWindow('?cmi5-return=3', { framed: true, opened: true })
    parent.postMessage.mockImplementation(() => {
      throw new Error('closed')
    })
    expect(runCmi5Return(win, PORTAL, document.createElement('div'))).toBe(true)
    expect(opener!.postMessage).toHaveBeenCalledTimes(2)
  })

  it('posts nothing for a bad module id, and leaves a player page alone', () => {
    const bad = pageWindow('?cmi5-return=abc', { framed: true })
    const container = document.createElement('div')
    expect(runCmi5Return(bad.win, PORTAL, container)).toBe(true)
    expect(bad.parent.postMessage).not.toHaveBeenCalled()
    expect(container.textContent).toBe(CMI5_RETURN_TEXT)
    const player = pageWindow('', { framed: true })
    const other = document.createElement('div')
    expect(runCmi5Return(player.win, PORTAL, other)).toBe(false)
    expect(player.parent.postMessage).not.toHaveBeenCalled()
    expect(other.textContent).toBe('')
  })
})
