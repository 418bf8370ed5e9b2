import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime'

/** Thrown (during render) when a remote module could not be loaded; the error boundary shows the fallback. */
export class RemoteUnavailableError extends Error {
  constructor(id: string) {
    super(`Remote module ${id} could not be loaded`)
    this.name = 'RemoteUnavailableError'
  }
}

/**
 * Runtime plugin: a remote that is down must not blank the page around it (STACK-NOTES,
 * RUNTIME-003). A failed module load resolves to a stand-in whose render throws into the nearest
 * error boundary; a failed manifest fetch stays a rejected load, which the boundary also catches.
 */
export const errorLoadRemotePlugin = (): ModuleFederationRuntimePlugin => ({
  name: 'portal-error-load-remote',
  errorLoadRemote(args) {
    console.error(`[portal] could not load remote ${args.id} (${args.lifecycle})`, args.error)
    if (args.lifecycle === 'onLoad') {
      const Unavailable = () => {
        throw new RemoteUnavailableError(args.id)
      }
      return { default: Unavailable }
    }
    return undefined
  },
})
