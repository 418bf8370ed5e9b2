/**
 * Values loaded on demand and kept for `ttlMs`, for lookups that come in bursts on hot paths
 * (a page's content files, a SCO's commits every 5 s). Holds at most `max` entries: past that it
 * starts over rather than tracking ages. Misses are kept too (the ids looked up never come back).
 */
export function ttlCache<K, V, A extends unknown[] = []>(opts: { ttlMs: number; max: number; now?: () => number }, load: (key: K, ...args: A) => Promise<V>) {
  const entries = new Map<K, { value: V; at: number }>()
  const now = opts.now ?? Date.now
  /** The value for `key`; `args` are what a load needs beyond the key. */
  return async (key: K, ...args: A): Promise<V> => {
    const t = now()
    const hit = entries.get(key)
    if (hit && t - hit.at < opts.ttlMs) return hit.value
    const value = await load(key, ...args)
    if (entries.size >= opts.max) entries.clear()
    entries.set(key, { value, at: t })
    return value
  }
}
