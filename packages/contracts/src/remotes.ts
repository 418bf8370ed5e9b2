import type { User } from './identity.ts'

/** Props the shell hands to every page a remote exposes (contract major 1). */
export interface RemotePageProps {
  user: User
  onUserUpdated: (user: User) => void
  /**
   * Navigation handed over by the shell, so remotes need no router of their own (the shell's
   * shared react-router copy is tree-shaken to what the shell itself uses).
   */
  navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void
  /** The route's parameters, e.g. `{ id }` on /exam/:id. */
  params: Readonly<Record<string, string | undefined>>
  /** State handed over with the navigation (e.g. an exam result). */
  locationState: unknown
  /**
   * Asks the host to check with `guard` before the user leaves this page by any way the host
   * controls (a link, browser Back, Logout); answers the function that withdraws it. Absent when
   * the host has no such ways out (a component hosted inside another remote). Added in 1.1.
   */
  registerLeaveGuard?: (guard: LeaveGuard) => () => void
  /**
   * Tells the host the page now shows another view in place (an exam started, a course opened):
   * the host titles the document after it and, when the change dropped keyboard focus to <body>,
   * puts focus on the view's h1 once it is shown. A route needs no call: the host titles every
   * route and focuses its heading itself. Absent when the host does not title pages (a component
   * hosted inside another remote). Added in mf_learner 1.1, mf_exams 1.2.
   */
  announcePage?: (title: string) => void
}

/** How the user is leaving: to another page of the portal (`to` is its path), or logging out. */
export type LeaveIntent = { kind: 'navigate'; to: string } | { kind: 'logout' }

/**
 * Asked before the user leaves a page that holds something under way (a timed exam): it tells the
 * user what really happens and resolves true to let them go, false to keep them on the page.
 */
export type LeaveGuard = (intent: LeaveIntent) => Promise<boolean>

/** What a remote promises the shell: the pages it exposes (each takes `RemotePageProps`) and a version. */
export interface RemoteContract {
  /**
   * `MAJOR.MINOR`. Within a major only additions: a new exposed module, a new optional prop (a
   * remote treats it as possibly absent, the shell gives it when it can). Anything else is a new
   * major, which the other side refuses: the slot shows its fallback instead of a broken page.
   */
  version: `${number}.${number}`
  modules: readonly string[]
}

/**
 * Every remote of the portal: the one list the shell, the gateway's registry, the local cluster
 * and the builds read. Adding a remote is an entry here plus its folder (see the README).
 */
export const REMOTES = {
  mf_learner: { version: '1.1', modules: ['UserDashboard'] },
  mf_exams: { version: '1.2', modules: ['ExamPage', 'ExamResultsPage'] },
  mf_admin: { version: '1.0', modules: ['AdminDashboard'] },
  // Pages, and two components other remotes host (the dashboard's cards, the admin Certifications tab).
  // 1.1: the team dashboard, the team member page and revenue entry (issue 11), Certification Notification Management (issue 12).
  mf_certifications: {
    version: '1.1',
    modules: [
      'TechnicianProfile',
      'CertificationManagement',
      'DashboardCards',
      'AdminCertificationsTab',
      'TeamDashboard',
      'TeamMember',
      'RevenueEntry',
      'CertificationNotifications',
    ],
  },
} as const satisfies Record<string, RemoteContract>

/** The learner dashboard's sections (element ids mf_learner renders) the shell's navigation links to. */
export const DASHBOARD_SECTIONS = { courses: 'my-courses', exams: 'available-exams' } as const

export type RemoteName = keyof typeof REMOTES
/** An exposed module as the shell loads it, e.g. `mf_exams/ExamPage`. */
export type RemoteModuleId = { [R in RemoteName]: `${R}/${(typeof REMOTES)[R]['modules'][number]}` }[RemoteName]

export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[]

/** The remote's folder, workspace, compose service and path under the gateway: `mf_exams` → `mf-exams`. */
export const remoteFolder = (name: string): string => name.replace(/_/g, '-')

/** The variable naming where the remote's build is served: `mf_exams` → `REMOTE_MF_EXAMS_URL`. */
export const remoteUrlVar = (name: string) => `REMOTE_${name.toUpperCase()}_URL` as const

/** The variable naming the remote's own public origin (unset: same origin, through the gateway). */
export const remotePublicUrlVar = (name: string) => `REMOTE_${name.toUpperCase()}_PUBLIC_URL` as const

/** A remote that does not meet the shell's contract; the slot's error boundary shows the fallback. */
export class RemoteContractError extends Error {
  constructor(id: string, reason: string) {
    super(`Remote module ${id} does not meet the shell's contract: ${reason}`)
    this.name = 'RemoteContractError'
  }
}

const major = (version: string) => Number(version.split('.')[0])

/** Whether a remote built against contract `remote` works with a shell built against `shell`. */
export const compatibleContract = (shell: string, remote: string): boolean => Number.isInteger(major(shell)) && major(shell) === major(remote)

/**
 * The shell's check of a loaded exposed module: a module of the contract, built against a
 * compatible contract version (its `contract` export; a module without one predates it, 1.0), with
 * a default export. Returns that export; throws `RemoteContractError` otherwise.
 */
export function checkRemoteModule<M extends { default?: unknown; contract?: unknown }>(id: string, mod: M | undefined): NonNullable<M['default']> {
  const [name, module] = id.split('/') as [string, string | undefined]
  const expected: RemoteContract | undefined = Object.hasOwn(REMOTES, name) ? REMOTES[name as RemoteName] : undefined
  if (!expected || !module || !expected.modules.includes(module)) throw new RemoteContractError(id, 'not an exposed module of the contract')
  const built = mod?.contract ?? '1.0'
  if (typeof built !== 'string' || !compatibleContract(expected.version, built))
    throw new RemoteContractError(id, `built against contract ${String(built)}, the shell speaks ${expected.version}`)
  if (!mod?.default) throw new RemoteContractError(id, 'no default export')
  return mod.default as NonNullable<M['default']>
}
