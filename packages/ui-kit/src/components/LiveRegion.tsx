import { useCallback, useState } from 'react'

export interface Announcement {
  text: string
  /** Grows with every message, so the same text said twice is announced twice. */
  id: number
}

/** The latest message for a `LiveRegion` and the function that replaces it. */
export const useAnnouncement = () => {
  const [message, setMessage] = useState<Announcement | null>(null)
  const announce = useCallback((text: string) => setMessage((m) => ({ text, id: (m?.id ?? 0) + 1 })), [])
  return [message, announce] as const
}

/**
 * A polite, visually hidden live region that is always in the page (one inserted together with its
 * text is often not read). Each message is a new node, so a repeated text is read again.
 */
export const LiveRegion = ({ message }: { message: Announcement | null }) => (
  <div role="status" aria-live="polite" aria-atomic="true" className="pk-visually-hidden">
    {message ? <span key={message.id}>{message.text}</span> : null}
  </div>
)
