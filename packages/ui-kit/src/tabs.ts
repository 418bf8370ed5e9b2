/** The tab reached from `current` by an arrow, Home or End key, or null for other keys (WAI-ARIA tabs: arrows wrap around). */
export function tabAfterKey<T>(tabs: readonly T[], current: T, key: string): T | null {
  const i = tabs.indexOf(current)
  const n = tabs.length
  switch (key) {
    case 'ArrowRight':
      return tabs[(i + 1) % n]!
    case 'ArrowLeft':
      return tabs[(i - 1 + n) % n]!
    case 'Home':
      return tabs[0]!
    case 'End':
      return tabs[n - 1]!
    default:
      return null
  }
}
