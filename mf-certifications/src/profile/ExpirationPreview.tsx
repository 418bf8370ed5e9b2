const SHOWN = { margin: 0, padding: '.5rem .75rem', borderLeft: '3px solid var(--c-primary)', background: '#f8fafc', fontWeight: 600 }

/**
 * The expiration a form will save, and why (issue 23): a polite live region, there from the first
 * render so that a change is read, which the date fields name with aria-describedby.
 */
export const ExpirationPreview = ({ id, text }: { id: string; text: string | null }) => (
  <p id={id} aria-live="polite" aria-atomic="true" style={text ? SHOWN : { margin: 0 }}>
    {text}
  </p>
)
