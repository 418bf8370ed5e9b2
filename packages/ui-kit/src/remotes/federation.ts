import { RemoteRegistry, checkRemoteModule } from '@portal/contracts'
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime'
import type { ComponentType } from 'react'
import { errorLoadRemotePlugin } from './error-load-remote.ts'

/**
 * The registry document, fetched once per page: the shell and every remote that hosts another
 * remote bundle their own copy of this module, so the promise is kept on the window.
 */
const REGISTRY_KEY = Symbol.for('portal.remoteRegistry')
type RegistryHolder = { [REGISTRY_KEY]?: Promise<RemoteRegistry> }

/** The registry document (the remotes, and where course content plays for this page's address). */
export const fetchRegistry = (): Promise<RemoteRegistry> => {
  const holder = globalThis as RegistryHolder
  holder[REGISTRY_KEY] ??= fetch('/remote-registry.json', { headers: { Accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(`Remote registry answered ${res.status}`)
      return res.json() as Promise<unknown>
    })
    .then((json) => RemoteRegistry.parse(json))
    .catch((err: unknown) => {
      delete holder[REGISTRY_KEY] // let Try Again fetch it again
      throw err
    })
  return holder[REGISTRY_KEY]
}

let registered: Promise<void> | null = null

/**
 * Registers every remote of the gateway's registry with this bundle's federation instance (the
 * shell's, or a hosting remote's), with the plugin that turns a remote that is down into a fallback.
 */
export const ensureRemotesRegistered = (): Promise<void> => {
  registered ??= fetchRegistry()
    .then((registry) => {
      registerPlugins([errorLoadRemotePlugin()])
      registerRemotes(Object.entries(registry.remotes).map(([name, { entry }]) => ({ name, entry })))
    })
    .catch((err: unknown) => {
      registered = null
      throw err
    })
  return registered
}

/** Loads an exposed component such as `mf_learner/UserDashboard`, in the shape React.lazy wants. */
export const loadRemoteComponent = async <P>(id: string): Promise<{ default: ComponentType<P> }> => {
  await ensureRemotesRegistered()
  const mod = await loadRemote<{ default?: ComponentType<P>; contract?: unknown }>(id)
  // A module outside the contract or of another major version shows the slot's fallback.
  return { default: checkRemoteModule(id, mod ?? undefined) }
}
