/*
 * The content player's page (served by the gateway on the content origin only, at /player/): holds
 * the SCORM runtime's API objects for the SCO it frames, and talks to the portal's course viewer
 * over the channel of protocol.ts. The portal's origins are written into the page by the gateway.
 */
import { flushOnPageHide, preloadRuntime, startScormSession, startSequencedSession } from '../runtime/index.ts'
import { runCmi5Return } from './cmi5-return.ts'
import { Player, type PlayerRuntime } from './player.ts'
import { hello, viewerPort, type PlayerEvent, type ViewerCommand } from './protocol.ts'
import { createScoFrameHost } from './sco-frame.ts'

const runtime: PlayerRuntime = { flushOnPageHide, startScormSession, startSequencedSession }

const portalOrigins = (document.querySelector('meta[name="portal-origins"]')?.getAttribute('content') ?? '').split(/\s+/).filter(Boolean)
const root = document.documentElement
root.style.cssText = 'height:100%;margin:0;overflow:hidden;background:#fff'
document.body.style.cssText = 'height:100%;margin:0;overflow:hidden'
const container = document.getElementById('player') ?? document.body
container.style.cssText = 'height:100%'

const COMMANDS = new Set<ViewerCommand['t']>(['init', 'open', 'navigate', 'resume', 'close'])

if (runCmi5Return(window, portalOrigins, container)) {
  // The returnURL of a cmi5 AU: the viewer has been told; nothing to play.
  container.style.cssText = 'padding:1rem;font:16px/1.5 system-ui,sans-serif'
} else if (window.parent === window) {
  container.textContent = 'This page plays course content inside the learning portal.'
} else {
  let connected = false
  window.addEventListener('message', (e: MessageEvent) => {
    if (connected) return
    const port = viewerPort(e, window.parent, window, portalOrigins)
    if (!port) return
    connected = true
    const send = (event: PlayerEvent) => port.postMessage(event)
    const player = new Player({
      win: window,
      frame: createScoFrameHost({ win: window, container, send }),
      send,
      loadRuntime: async (version) => {
        await preloadRuntime(version)
        return runtime
      },
    })
    port.onmessage = (m: MessageEvent) => {
      const cmd = m.data as ViewerCommand | null
      if (cmd && typeof cmd === 'object' && COMMANDS.has(cmd.t)) void player.handle(cmd)
    }
  })
  // A message addressed to another origin than the parent's is dropped: one of these reaches it.
  // Said again until answered, in case the viewer was not listening yet (10 s at most).
  let tries = 0
  const sayHello = () => {
    if (connected || tries++ >= 40) return
    for (const origin of portalOrigins) window.parent.postMessage(hello(), origin)
    setTimeout(sayHello, 250)
  }
  sayHello()
}
