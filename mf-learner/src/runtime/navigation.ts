import { launchableItems, type ScormItem } from '@portal/contracts'

/** A navigation request of the content: 2004 `adl.nav.request`, 1.2 `cmi.nav.event`. */
export type NavRequest = { kind: 'continue' | 'previous' | 'exit' | 'exitAll' | 'abandon' | 'abandonAll' | 'suspendAll' } | { kind: 'choice' | 'jump'; target: string }

export { launchableItems }

/**
 * The item a navigation request leads to after `currentId` (continue → next launchable,
 * previous → previous, choice/jump → target if launchable), or null (exit..., none, out of range).
 */
export function itemAfter(items: ScormItem[], currentId: string, request: NavRequest): ScormItem | null {
  const list = launchableItems(items)
  switch (request.kind) {
    case 'continue':
    case 'previous': {
      const at = list.findIndex((i) => i.identifier === currentId)
      if (at < 0) return null
      return list[at + (request.kind === 'continue' ? 1 : -1)] ?? null
    }
    case 'choice':
    case 'jump':
      return list.find((i) => i.identifier === request.target) ?? null
    default:
      return null
  }
}

const SIMPLE_REQUESTS = ['continue', 'previous', 'exit', 'exitAll', 'abandon', 'abandonAll', 'suspendAll'] as const

/** Parses a 2004 `adl.nav.request` value (`continue`, `{target=X}choice`, `_none_`...). */
export function parseNavRequest(value: string): NavRequest | null {
  const simple = SIMPLE_REQUESTS.find((k) => k === value)
  if (simple) return { kind: simple }
  const m = /^\{target=([^}]+)\}(choice|jump)$/.exec(value)
  if (m) return { kind: m[2] as 'choice' | 'jump', target: m[1] }
  return null
}
