/** An in-portal link that the host's router follows (a real link: it opens in a new tab too). */
export const RouteLink = ({
  to,
  navigate,
  children,
  className,
  label,
}: {
  to: string
  navigate: (to: string) => void
  children: string
  className?: string
  /** A fuller accessible name when the visible text is short (it starts with that text). */
  label?: string
}) => (
  <a
    href={to}
    className={className}
    aria-label={label}
    onClick={(e) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
      e.preventDefault()
      navigate(to)
    }}
  >
    {children}
  </a>
)
