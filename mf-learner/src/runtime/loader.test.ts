import { describe, expect, it } from 'vitest'
import { preloadRuntime, runtimeLoaded, startScormSession } from './index.ts'
import { hostWindow, launchOf } from '../test-support/index.ts'

describe('runtime loading', () => {
  it('refuses to start a session before its build is loaded, and loads only the build asked for', async () => {
    const host = hostWindow()
    expect(() => startScormSession({ launch: launchOf(), itemId: 'playing', host })).toThrow(/preloadRuntime/)
    expect(host.API).toBeUndefined()
    await preloadRuntime('AICC')
    expect(runtimeLoaded('1.2')).toBe(true)
    expect(runtimeLoaded('AICC')).toBe(true)
    expect(runtimeLoaded('2004')).toBe(false)
    expect(() => startScormSession({ launch: launchOf({ version: '2004' }), itemId: 'playing', host })).toThrow(/preloadRuntime/)
    startScormSession({ launch: launchOf(), itemId: 'playing', host, logLevel: 5 })
    expect(typeof host.API.LMSInitialize).toBe('function')
    expect(host.API_1484_11).toBeUndefined()
  })

  it('refuses an item that is not launchable', async () => {
    await preloadRuntime('1.2')
    expect(() => startScormSession({ launch: launchOf(), itemId: 'nope', host: hostWindow() })).toThrow(/No launchable item/)
  })
})
