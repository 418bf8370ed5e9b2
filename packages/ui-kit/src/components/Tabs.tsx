import { useRef, type KeyboardEvent, type ReactNode } from 'react'
import { tabAfterKey } from '../tabs.ts'

export interface TabsProps<T extends string> {
  /** The tab list's accessible name, e.g. "Admin sections". */
  label: string
  tabs: readonly T[]
  selected: T
  onSelect: (tab: T) => void
  /** A stable element id per tab; its panel is `${id}-panel`. */
  idOf: (tab: T) => string
  /** Class of the panel (e.g. "pk-card"). */
  panelClassName?: string
  /** The selected tab's panel. */
  children: ReactNode
}

/**
 * WAI-ARIA tabs: a tablist whose tabs move with the arrow keys, Home and End (focus and selection
 * together, one tab in the Tab order), and the selected tab's panel.
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect, idOf, panelClassName, children }: TabsProps<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>())
  const onKeyDown = (e: KeyboardEvent) => {
    const next = tabAfterKey(tabs, selected, e.key)
    if (next === null) return
    e.preventDefault()
    onSelect(next)
    refs.current.get(next)?.focus()
  }
  return (
    <>
      <div role="tablist" aria-label={label} className="pk-tabs" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t}
            ref={(el) => {
              if (el) refs.current.set(t, el)
              else refs.current.delete(t)
            }}
            type="button"
            role="tab"
            id={idOf(t)}
            className="pk-tab"
            aria-selected={selected === t}
            aria-controls={`${idOf(t)}-panel`}
            tabIndex={selected === t ? 0 : -1}
            onClick={() => onSelect(t)}
          >
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${idOf(selected)}-panel`} aria-labelledby={idOf(selected)} className={panelClassName} tabIndex={0}>
        {children}
      </div>
    </>
  )
}
