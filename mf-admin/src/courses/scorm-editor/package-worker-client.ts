import type { CaptivateEdit, CaptivateProject } from '@portal/contracts/captivate'
import type { Cmi5Summary } from '../cmi5-summary.ts'

type Job = { type: 'analyze'; file: Blob } | { type: 'inspect'; file: Blob } | { type: 'rewrite'; file: Blob; edits: CaptivateEdit[] }
export type WorkerRequest = Job & { id: number }
/** `inspect` answers with `cmi5` for a cmi5 package, else with `project`; the others with `project`. */
export type WorkerReply = { id: number; ok: true; project?: CaptivateProject; cmi5?: Cmi5Summary; blob?: Blob } | { id: number; ok: false; unreadable: boolean; message: string }

/** A failed analysis or rewrite: `unreadable` when the project files could not be found or parsed. */
export class PackageEditError extends Error {
  readonly unreadable: boolean
  constructor(message: string, unreadable: boolean) {
    super(message)
    this.unreadable = unreadable
  }
}

export interface PackageEditor {
  analyze(file: Blob): Promise<CaptivateProject>
  /** A cmi5 package's summary, else its Captivate project (failing as analyze does). */
  inspect(file: Blob): Promise<{ cmi5: Cmi5Summary } | { project: CaptivateProject }>
  rewrite(file: Blob, edits: CaptivateEdit[]): Promise<{ blob: Blob; project: CaptivateProject }>
  close(): void
}

/**
 * The package editor in a Web Worker (large archives are read and written off the page's thread),
 * or, where workers are unavailable or the worker cannot start, on the page itself.
 */
export function createPackageEditor(): PackageEditor {
  let worker: Worker | null = null
  try {
    // Built on its own and shipped as an asset (mf-admin/worker.config.ts): the URL is not inside
    // `new Worker(...)`, so the remote's build does not make a federated worker chunk of it.
    const url = typeof Worker === 'undefined' ? null : new URL('../../../.worker-build/scorm-package-worker.js', import.meta.url)
    worker = url ? new Worker(url) : null
  } catch {
    worker = null
  }
  let nextId = 1
  const pending = new Map<number, { job: Job; resolve: (r: WorkerReply & { ok: true }) => void; reject: (e: Error) => void }>()
  const inline = () => import(/* webpackChunkName: "scorm-package-zip" */ './package-zip.ts')
  const onPage = async (req: Job): Promise<WorkerReply & { ok: true }> => {
    const { analyzePackage, inspectPackage, rewritePackage } = await inline()
    const { CaptivateError } = await import('@portal/contracts/captivate')
    try {
      if (req.type === 'analyze') return { id: 0, ok: true, project: await analyzePackage(req.file) }
      if (req.type === 'inspect') return { id: 0, ok: true, ...(await inspectPackage(req.file)) }
      const out = await rewritePackage(req.file, req.edits)
      return { id: 0, ok: true, ...out }
    } catch (err) {
      throw new PackageEditError(err instanceof Error ? err.message : String(err), err instanceof CaptivateError && err.code === 'unreadable')
    }
  }
  const run = async (job: Job): Promise<WorkerReply & { ok: true }> => {
    const w = worker
    if (!w) return onPage(job)
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { job, resolve, reject })
      w.postMessage({ ...job, id } satisfies WorkerRequest)
    })
  }
  if (worker) {
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      const p = pending.get(e.data.id)
      if (!p) return
      pending.delete(e.data.id)
      if (e.data.ok) p.resolve(e.data)
      else p.reject(new PackageEditError(e.data.message, e.data.unreadable))
    }
    // A worker that cannot start (or dies): its work is done on the page instead.
    worker.onerror = (e) => {
      e.preventDefault()
      worker?.terminate()
      worker = null
      const waiting = [...pending.values()]
      pending.clear()
      for (const p of waiting) onPage(p.job).then(p.resolve, p.reject)
    }
  }
  return {
    analyze: async (file) => (await run({ type: 'analyze', file })).project!,
    inspect: async (file) => {
      const r = await run({ type: 'inspect', file })
      return r.cmi5 ? { cmi5: r.cmi5 } : { project: r.project! }
    },
    rewrite: async (file, edits) => {
      const r = await run({ type: 'rewrite', file, edits })
      return { blob: r.blob!, project: r.project! }
    },
    close: () => worker?.terminate(),
  }
}
