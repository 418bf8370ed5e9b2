import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
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

/** Which ends of a scrolling row hide tabs (a pixel of rounding is not a hidden tab). */
export const hiddenEnds = (el: Pick<HTMLElement, 'scrollLeft' | 'clientWidth' | 'scrollWidth'>): { start: boolean; end: boolean } => ({
  start: el.scrollLeft > 1,
  end: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
})

/** Tracks which ends of `ref`'s row hide tabs, as it scrolls and as the screen changes size. */
function useHiddenEnds(ref: { current: HTMLElement | null }) {
  const [ends, setEnds] = useState({ start: false, end: false })
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const update = () => {
      const next = hiddenEnds(el)
      setEnds((was) => (was.start === next.start && was.end === next.end ? was : next))
    }
    update()
    el.addEventListener('scroll', update, { passive: true })
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update)
    resized?.observe(el)
    return () => {
      el.removeEventListener('scroll', update)
      resized?.disconnect()
    }
  }, [ref])
  return ends
}

/**
 * WAI-ARIA tabs: a tablist whose tabs move with the arrow keys, Home and End (focus and selection
 * together, one tab in the Tab order), and the selected tab's panel. A row wider than the screen
 * scrolls sideways; an end that hides tabs fades out under an arrow that scrolls that way (for the
 * eye and the pointer: the keyboard already reaches every tab with the arrow keys).
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect, idOf, panelClassName, children }: TabsProps<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>())
  const listRef = useRef<HTMLDivElement>(null)
  const hidden = useHiddenEnds(listRef)
  const onKeyDown = (e: KeyboardEvent) => {
    const next = tabAfterKey(tabs, selected, e.key)
    if (next === null) return
    e.preventDefault()
    onSelect(next)
    refs.current.get(next)?.focus()
  }
  const scroll = (direction: 1 | -1) => {
    const el = listRef.current
    if (!el) return
    const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
    el.scrollBy({ left: direction * Math.max(el.clientWidth * 0.7, 80), behavior: still ? 'auto' : 'smooth' })
  }
  const more = (end: 'start' | 'end') => (
    <button type="button" className={`pk-tabs__more pk-tabs__more--${end}`} aria-hidden="true" tabIndex={-1} title="More tabs" onClick={() => scroll(end === 'end' ? 1 : -1)}>
      {end === 'end' ? '›' : '‹'}
    </button>
  )
  return (
    <>
      <div className="pk-tabs-strip">
        {hidden.start ? more('start') : null}
        <div ref={listRef} role="tablist" aria-label={label} className="pk-tabs" onKeyDown={onKeyDown}>
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
        {hidden.end ? more('end') : null}
      </div>
      <div role="tabpanel" id={`${idOf(selected)}-panel`} aria-labelledby={idOf(selected)} className={panelClassName} tabIndex={0}>
        {children}
      </div>
    </>
  )
}
