import { RemoteRegistry, checkRemoteModule } from '@portal/contracts'
import type { RemoteProps } from '@portal/ui-kit'
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime'
import type { ComponentType } from 'react'

let registered: Promise<void> | null = null

/** Reads the remote registry once (the gateway serves it) and registers every remote. */
export const ensureRemotesRegistered = (): Promise<void> => {
  registered ??= fetch('/remote-registry.json', { headers: { Accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(`Remote registry answered ${res.status}`)
      return res.json() as Promise<unknown>
    })
    .then((json) => {
      const registry = RemoteRegistry.parse(json)
      registerRemotes(Object.entries(registry.remotes).map(([name, { entry }]) => ({ name, entry })))
    })
    .catch((err: unknown) => {
      registered = null // let Try Again fetch it again
      throw err
    })
  return registered
}

/** Loads an exposed component such as `mf_learner/UserDashboard`, in the shape React.lazy wants. */
export const loadRemoteComponent = async (id: string): Promise<{ default: ComponentType<RemoteProps> }> => {
  await ensureRemotesRegistered()
  const mod = await loadRemote<{ default?: ComponentType<RemoteProps>; contract?: unknown }>(id)
  // A module outside the contract or of another major version shows the slot's fallback.
  return { default: checkRemoteModule(id, mod ?? undefined) }
}
