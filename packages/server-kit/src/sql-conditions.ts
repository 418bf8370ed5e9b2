/**
 * The WHERE clause of a list with optional filters (decision 0046): each condition with its bound
 * `?` values, in the order given, so the values always line up with their placeholders.
 */
export function sqlConditions(first: readonly string[] = [], firstValues: readonly unknown[] = []) {
  const conditions = [...first]
  const values = [...firstValues]
  const clause = {
    /** Adds `condition` with the values of its `?`s when `given` is truthy (a filter asked for). */
    when(given: unknown, condition: string, ...bound: unknown[]) {
      if (given) {
        conditions.push(condition)
        values.push(...bound)
      }
      return clause
    },
    /** `where a and b`, or nothing when no condition was added. */
    get where(): string {
      return conditions.length ? `where ${conditions.join(' and ')}` : ''
    },
    /** The bound values, in the order of their placeholders. */
    get values(): unknown[] {
      return [...values]
    },
  }
  return clause
}
