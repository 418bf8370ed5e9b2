// The pre-upload editor's worker: reads and rewrites package files off the page's thread.
import { CaptivateError } from '@portal/contracts/captivate'
import { analyzePackage, inspectPackage, rewritePackage } from './package-zip.ts'
import type { WorkerReply, WorkerRequest } from './package-worker-client.ts'

const scope = self as unknown as { onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null; postMessage(reply: WorkerReply): void }

scope.onmessage = (e) => {
  const req = e.data
  const fail = (err: unknown) =>
    scope.postMessage({ id: req.id, ok: false, unreadable: err instanceof CaptivateError && err.code === 'unreadable', message: err instanceof Error ? err.message : String(err) })
  if (req.type === 'analyze') analyzePackage(req.file).then((project) => scope.postMessage({ id: req.id, ok: true, project }), fail)
  else if (req.type === 'inspect') inspectPackage(req.file).then((found) => scope.postMessage({ id: req.id, ok: true, ...found }), fail)
  else rewritePackage(req.file, req.edits).then(({ blob, project }) => scope.postMessage({ id: req.id, ok: true, project, blob }), fail)
}
