import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * Where focus goes when the item `removed` leaves a list: the item after it, else the one before
 * it, else undefined (the list is empty: the caller picks a place outside it).
 */
export const neighbourAfterRemoval = <K>(keys: readonly K[], removed: K): K | undefined => {
  const i = keys.indexOf(removed)
  if (i < 0) return undefined
  return i + 1 < keys.length ? keys[i + 1] : i > 0 ? keys[i - 1] : undefined
}

/**
 * Focuses the first control in `container` marked aria-invalid (its label, state and linked error
 * are read out); false when there is none.
 */
export const focusFirstInvalid = (container: HTMLElement | null): boolean => {
  const invalid = container?.querySelector<HTMLElement>('[aria-invalid="true"]')
  invalid?.focus()
  return Boolean(invalid)
}

export interface FocusTargets {
  /** The ref of a place focus can be sent to, by a name unique within the view. */
  target: (name: string) => (element: HTMLElement | null) => void
  /** After the change made with it has rendered, focuses the first named place that is in the page and enabled. */
  focusLater: (...names: string[]) => void
}

/**
 * Named focus targets of one view, for controls that move, disappear or turn disabled under the
 * keyboard (a browser then drops focus to <body>). The focusing runs in an effect of the calling
 * component, so after its children's effects: a modal child closing in the same render has already
 * given the page back (an inert page cannot take focus).
 */
export function useFocusTargets(): FocusTargets {
  const elements = useRef(new Map<string, HTMLElement>())
  const refs = useRef(new Map<string, (element: HTMLElement | null) => void>())
  // State, not a ref: the request itself causes the render after which it is carried out.
  const [request, setRequest] = useState<{ names: readonly string[] } | null>(null)
  useEffect(() => {
    if (!request) return
    for (const name of request.names) {
      const element = elements.current.get(name)
      if (element?.isConnected && !element.matches(':disabled')) {
        element.focus()
        return
      }
    }
  }, [request])
  const target = useCallback((name: string) => {
    let ref = refs.current.get(name)
    if (!ref) {
      ref = (element) => {
        if (element) elements.current.set(name, element)
        else elements.current.delete(name)
      }
      refs.current.set(name, ref)
    }
    return ref
  }, [])
  const focusLater = useCallback((...names: string[]) => setRequest({ names }), [])
  return { target, focusLater }
}
