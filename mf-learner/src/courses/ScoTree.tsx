import type { ScormItem } from '@portal/contracts'
import { Button } from '@portal/ui-kit'
import { useId } from 'react'
import type { ItemAccess } from '../runtime/index.ts'

export const findItem = (items: readonly ScormItem[], id: string): ScormItem | null => {
  for (const i of items) {
    if (i.identifier === id) return i
    const inner = findItem(i.children, id)
    if (inner) return inner
  }
  return null
}

export const countLaunchable = (items: readonly ScormItem[]): number => items.reduce((n, i) => n + (i.href ? 1 : 0) + countLaunchable(i.children), 0)

export interface ScoTreeProps {
  items: readonly ScormItem[]
  activeId: string | null
  onPick: (id: string) => void
  /** Sequenced packages: what the engine lets the learner open (hidden items are left out). */
  access?: Readonly<Record<string, ItemAccess>>
}

/**
 * The package's item tree: visible items only; SCOs are buttons, clusters are headings of their
 * lists. A SCO the package does not let the learner open yet stays in the tree, focusable, marked
 * `aria-disabled` and described by the reason.
 */
export const ScoTree = ({ items, activeId, onPick, access }: ScoTreeProps) => (
  <ul className="pk-list-none pk-m0 pk-pl-m">
    {items
      .filter((i) => i.isvisible && access?.[i.identifier]?.kind !== 'hidden')
      .map((i) => (
        <li key={i.identifier} className="pk-my-xxs">
          {i.href ? (
            <ScoButton item={i} active={i.identifier === activeId} access={access?.[i.identifier]} onPick={onPick} />
          ) : (
            <span className="pk-fw-semibold">{i.title || i.identifier}</span>
          )}
          {i.children.length > 0 ? <ScoTree items={i.children} activeId={activeId} onPick={onPick} access={access} /> : null}
        </li>
      ))}
  </ul>
)

/** How a focusable but unavailable button looks (the kit styles only `disabled`, which takes it out of the tab order). */
export const LOCKED = { opacity: 0.55, cursor: 'not-allowed' } as const

const ScoButton = ({ item, active, access, onPick }: { item: ScormItem; active: boolean; access: ItemAccess | undefined; onPick: (id: string) => void }) => {
  const reasonId = useId()
  const reason = access?.kind === 'disabled' ? access.reason : null
  return (
    <>
      <Button
        variant="link"
        aria-current={active ? 'true' : undefined}
        aria-disabled={reason ? 'true' : undefined}
        aria-describedby={reason ? reasonId : undefined}
        style={{ fontWeight: active ? 700 : 500, textAlign: 'left', ...(reason ? LOCKED : {}) }}
        onClick={() => {
          if (!reason) onPick(item.identifier)
        }}
      >
        {item.title || item.identifier}
      </Button>
      {reason ? (
        <span id={reasonId} className="pk-muted pk-block pk-fs-13">
          {reason}
        </span>
      ) : null}
    </>
  )
}
