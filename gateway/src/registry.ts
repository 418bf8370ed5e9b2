import { REMOTE_NAMES, remoteFolder, remotePublicUrlVar, remoteUrlVar, type RemoteRegistry } from '@portal/contracts'
import { z } from 'zod'

/** Where one remote's build comes from; exactly one of the three ways. */
export interface RemoteConfig {
  /** Module Federation name, e.g. mf_learner. */
  name: string
  /** Served by the gateway itself from this folder (single-node, development). */
  dir?: string
  /** The remote's own server, proxied by the gateway under `/remotes/<folder>/` (cluster, compose). */
  url?: string
  /** Another origin the browser loads the remote from directly (its server answers CORS). */
  publicUrl?: string
}

/** The path the gateway serves a remote under: `/remotes/mf-exams`. */
export const remotePath = (name: string) => `/remotes/${remoteFolder(name)}`

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`)

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url({ protocol: /^https?$/ }).optional())

/** The variables naming the remotes' servers, one pair per remote of the contract. */
export const RemotesEnv = z.object(
  Object.fromEntries(
    REMOTE_NAMES.flatMap((name) => [
      [remoteUrlVar(name), optionalUrl],
      [remotePublicUrlVar(name), optionalUrl],
    ]),
  ) as Record<`REMOTE_${string}`, typeof optionalUrl>,
)

/**
 * Each remote of the contract as configured: `REMOTE_<NAME>_PUBLIC_URL` (the browser goes there),
 * else `REMOTE_<NAME>_URL` (proxied), else the workspace's build folder under `root`.
 */
export function remotesFromEnv(env: { [key: `REMOTE_${string}`]: string | undefined }, root: string): RemoteConfig[] {
  return REMOTE_NAMES.map((name) => {
    const publicUrl = env[remotePublicUrlVar(name)]
    const url = env[remoteUrlVar(name)]
    if (publicUrl) return { name, publicUrl: withSlash(publicUrl) }
    if (url) return { name, url: withSlash(url) }
    return { name, dir: `${root}${remoteFolder(name)}/dist` }
  })
}

/** The registry document the shell reads: each remote's manifest, same origin unless it has its own. */
export const registryOf = (remotes: readonly RemoteConfig[]): RemoteRegistry => ({
  remotes: Object.fromEntries(remotes.map((r) => [r.name, { entry: `${r.publicUrl ?? `${remotePath(r.name)}/`}mf-manifest.json` }])),
})

const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

/**
 * What the gateway adds to the shell's page (issue 30 item 7): a preload of every remote's
 * manifest, so the browser fetches them with the page's first scripts instead of after the shell
 * has run and read the registry. Each link is what the federation runtime's own request will
 * take up: the registry's URL, fetched in CORS mode without cookies to another origin
 * (`fetch(url)`'s credentials are same-origin, as `crossorigin="anonymous"` asks). A preload is
 * used by that one page: every page load asks again, revalidated by ETag, so a redeployed remote
 * is still taken up by the next one.
 */
export function manifestPreloads(registry: RemoteRegistry): (html: string) => string {
  const links = Object.values(registry.remotes)
    .map(({ entry }) => `<link rel="preload" href="${attribute(entry)}" as="fetch" crossorigin="anonymous">`)
    .join('')
  return (html) => html.replace('</head>', `${links}</head>`)
}

/**
 * The security headers with the remotes' own origins allowed to run scripts and be fetched
 * (their manifests); unchanged when every remote is same-origin.
 */
export function allowRemoteOrigins(headers: Record<string, string>, remotes: readonly RemoteConfig[]): Record<string, string> {
  const origins = [...new Set(remotes.flatMap((r) => (r.publicUrl ? [new URL(r.publicUrl).origin] : [])))]
  if (!origins.length) return headers
  const csp = headers['content-security-policy']!.split('; ')
    .map((d) => (/^(script-src|connect-src) /.test(d) ? `${d} ${origins.join(' ')}` : d))
    .join('; ')
  return { ...headers, 'content-security-policy': csp }
}

/** The proxied remote a request path belongs to, and the path on its server (with the query). */
export function resolveRemote(remotes: readonly RemoteConfig[], url: string): { name: string; path: string } | undefined {
  if (!url.startsWith('/remotes/')) return undefined
  for (const r of remotes) {
    if (!r.url) continue
    const prefix = `${remotePath(r.name)}/`
    if (!url.startsWith(prefix)) continue
    const rest = url.slice(prefix.length)
    // The remote's server may sit under a path of a shared host: never let a request climb out of it.
    if (/(?:^|\/)\.\.?(?:[/?]|$)|%2e|%2f|%5c|\\/i.test(rest.split('?')[0]!)) return undefined
    return { name: r.name, path: `${new URL(r.url).pathname}${rest}` }
  }
  return undefined
}
