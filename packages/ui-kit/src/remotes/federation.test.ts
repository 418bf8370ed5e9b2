import { beforeEach, describe, expect, it, vi } from 'vitest'

const runtime = vi.hoisted(() => ({
  registerPlugins: vi.fn(),
  registerRemotes: vi.fn(),
  loadRemote: vi.fn(),
}))
vi.mock('@module-federation/enhanced/runtime', () => runtime)

const registry = { remotes: { mf_certifications: { entry: '/remotes/mf-certifications/mf-manifest.json' } } }
const ok = () => new Response(JSON.stringify(registry), { status: 200, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  vi.resetModules()
  for (const f of Object.values(runtime)) f.mockReset()
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('portal.remoteRegistry')]
})

describe('remote loader', () => {
  it('registers the registry’s remotes and the fallback plugin, and loads an exposed component', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(ok())
    vi.stubGlobal('fetch', fetchMock)
    const Cards = () => null
    runtime.loadRemote.mockResolvedValue({ default: Cards })
    const { loadRemoteComponent } = await import('./federation.ts')
    await expect(loadRemoteComponent('mf_certifications/DashboardCards')).resolves.toEqual({ default: Cards })
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'mf_certifications', entry: '/remotes/mf-certifications/mf-manifest.json' }])
    expect(runtime.registerPlugins.mock.calls[0]![0][0].name).toBe('portal-error-load-remote')
  })

  it('fetches the registry once per page, even for a second bundle’s copy of the loader (a hosting remote)', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(ok())
    vi.stubGlobal('fetch', fetchMock)
    runtime.loadRemote.mockResolvedValue({ default: () => null })
    await (await import('./federation.ts')).loadRemoteComponent('mf_certifications/DashboardCards')
    vi.resetModules()
    await (await import('./federation.ts')).loadRemoteComponent('mf_certifications/AdminCertificationsTab')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    // Each copy registers with its own federation instance.
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(2)
  })

  it('lets Try Again fetch a registry that failed', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response('', { status: 503 }))
      .mockResolvedValue(ok())
    vi.stubGlobal('fetch', fetchMock)
    runtime.loadRemote.mockResolvedValue({ default: () => null })
    const { loadRemoteComponent } = await import('./federation.ts')
    await expect(loadRemoteComponent('mf_certifications/DashboardCards')).rejects.toThrow('Remote registry answered 503')
    await expect(loadRemoteComponent('mf_certifications/DashboardCards')).resolves.toBeDefined()
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('refuses a module without a default export', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(ok()))
    runtime.loadRemote.mockResolvedValue({})
    const { loadRemoteComponent } = await import('./federation.ts')
    await expect(loadRemoteComponent('mf_certifications/DashboardCards')).rejects.toThrow('no default export')
  })

  it('refuses a module outside the contract, or built against another major version of it', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(ok()))
    runtime.loadRemote.mockResolvedValue({ default: () => null, contract: '2.0' })
    const { loadRemoteComponent } = await import('./federation.ts')
    await expect(loadRemoteComponent('mf_certifications/DashboardCards')).rejects.toThrow('built against contract 2.0')
    await expect(loadRemoteComponent('mf_certifications/Nothing')).rejects.toThrow('not an exposed module of the contract')
  })
})
