import { mergePatchOf, type ScormCommit } from '@portal/contracts'

/** What scorm-again renders for a commit (`renderCommonCommitFields: true`). */
export interface RenderedCommit {
  successStatus?: string
  completionStatus?: string
  totalTimeSeconds?: number
  runtimeData?: Record<string, unknown>
  score?: Record<string, unknown>
  /** 2004: writable `adl.data` stores that hold a value (id → store). */
  sharedData?: Record<string, string>
}

export const COMMIT_FAILED = 'Failed to save progress'

/** Browsers refuse a beacon or a keepalive fetch above 64 KiB (in flight); stay under it. */
export const KEEPALIVE_MAX_BYTES = 60_000

/** Commit numbers per launch token: increase across every session of one launch in this page. */
const sequences = new Map<string, number>()
export function nextSeq(launchToken: string): number {
  const seq = (sequences.get(launchToken) ?? 0) + 1
  sequences.set(launchToken, seq)
  return seq
}

const finite = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined
}

/** The `ScormCommit` body of a rendered commit: only the contract's fields, runtimeData a plain object. */
export function commitBody(
  rendered: RenderedCommit,
  extra: { itemId: string; seq: number; terminated: boolean; adlData?: { id: string; store: string }[]; revision?: number },
): ScormCommit {
  const body: ScormCommit = {
    itemId: extra.itemId,
    seq: extra.seq,
    ...(extra.revision !== undefined ? { revision: extra.revision } : {}),
    terminated: extra.terminated,
    runtimeData: JSON.parse(JSON.stringify(rendered.runtimeData ?? {})) as Record<string, unknown>,
  }
  if (rendered.successStatus) body.successStatus = rendered.successStatus
  if (rendered.completionStatus) body.completionStatus = rendered.completionStatus
  const total = finite(rendered.totalTimeSeconds)
  if (total !== undefined && total >= 0) body.totalTimeSeconds = total
  if (rendered.score) {
    const score: NonNullable<ScormCommit['score']> = {}
    for (const k of ['raw', 'min', 'max', 'scaled'] as const) {
      const n = finite(rendered.score[k])
      if (n !== undefined) score[k] = n
    }
    if (Object.keys(score).length > 0) body.score = score
  }
  if (extra.adlData && extra.adlData.length > 0) body.adlData = extra.adlData.slice(0, 100)
  return body
}

export function byteLength(body: string): number {
  return new TextEncoder().encode(body).length
}

/** A commit the server stored (its answer said so): what a final commit's patch is measured against. */
export interface AckedCommit {
  seq: number
  runtimeData: Record<string, unknown>
}

/**
 * The JSON of a commit as it goes out. A final commit larger than a beacon may carry is sent as the
 * merge patch from the last commit the server stored (`base`): what changed since, usually a few
 * elements, while the large unchanged ones (64,000 characters of suspend data) stay out.
 */
export function wireJson(body: ScormCommit & { sequencing?: unknown }, acked: AckedCommit | null, budget = KEEPALIVE_MAX_BYTES): string {
  const whole = JSON.stringify(body)
  if (!body.terminated || !acked || byteLength(whole) <= budget) return whole
  const patch = JSON.stringify({ ...body, base: acked.seq, runtimeData: mergePatchOf(acked.runtimeData, body.runtimeData) })
  return byteLength(patch) < byteLength(whole) ? patch : whole
}

/** The server's answer to a commit (`ScormCommitResponse`); a beacon gets none. */
export interface CommitAnswer {
  result: boolean
  errorCode?: number
  applied?: boolean
  moduleCompleted?: boolean
  /** Sent by beacon: accepted for delivery, the server's answer is unknown. */
  beacon?: true
}

async function answerOf(res: Response): Promise<CommitAnswer | null> {
  if (!res.ok) return null
  try {
    const answer = (await res.json()) as Record<string, unknown>
    const result = answer.result === true || answer.result === 'true'
    if (!result) return null
    return {
      result,
      errorCode: typeof answer.errorCode === 'number' ? answer.errorCode : 0,
      ...(typeof answer.applied === 'boolean' ? { applied: answer.applied } : {}),
      ...(typeof answer.moduleCompleted === 'boolean' ? { moduleCompleted: answer.moduleCompleted } : {}),
    }
  } catch {
    return null
  }
}

/**
 * Sends a commit body to the commit URL. `final` commits (Terminate/Finish, page dismissal) go by
 * beacon as text/plain so they survive the page going away; a beacon the browser refuses (too
 * large, unavailable) falls back to fetch. Other commits go by fetch as JSON, with keepalive when
 * small enough (a keepalive request the browser refuses, e.g. over its in-flight quota, is sent
 * again without). Resolves the server's answer (`beacon: true` when sent by beacon), null on failure.
 */
export async function sendCommit(url: string, body: string, final: boolean): Promise<CommitAnswer | null> {
  const small = byteLength(body) <= KEEPALIVE_MAX_BYTES
  if (final && small && typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    try {
      if (navigator.sendBeacon(url, new Blob([body], { type: 'text/plain;charset=UTF-8' }))) return { result: true, beacon: true }
    } catch {
      // fall back to fetch below
    }
  }
  const init: RequestInit = {
    method: 'POST',
    headers: { 'Content-Type': final ? 'text/plain;charset=UTF-8' : 'application/json' },
    body,
  }
  let res: Response
  try {
    res = await fetch(url, { ...init, keepalive: small })
  } catch {
    try {
      res = await fetch(url, init)
    } catch {
      return null
    }
  }
  return answerOf(res)
}
