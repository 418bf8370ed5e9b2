import { useCallback, useState } from 'react'

export interface Announcement {
  text: string
  /**
   * A further sentence shown and read after the text, in an element of its own (a run's figures
   * after the spec's success message), so the text stays exactly the message.
   */
  detail?: string
  /** Grows with every message, so the same text said twice is announced twice. */
  id: number
}

/** The latest message for a `LiveRegion` and the function that replaces it. */
export const useAnnouncement = () => {
  const [message, setMessage] = useState<Announcement | null>(null)
  const announce = useCallback((text: string, detail?: string) => setMessage((m) => ({ text, ...(detail ? { detail } : {}), id: (m?.id ?? 0) + 1 })), [])
  return [message, announce] as const
}

/**
 * A polite, visually hidden live region that is always in the page (one inserted together with its
 * text is often not read). Each message is a new node, so a repeated text is read again.
 */
export const LiveRegion = ({ message }: { message: Announcement | null }) => (
  <div role="status" aria-live="polite" aria-atomic="true" className="pk-visually-hidden">
    {message ? (
      message.detail ? (
        <span key={message.id}>
          <span>{message.text}</span> <span>{message.detail}</span>
        </span>
      ) : (
        <span key={message.id}>{message.text}</span>
      )
    ) : null}
  </div>
)
