/**
 * Runs `task` on every item, in order, at most `limit` at once. `slot` (0 to limit - 1) is the lane
 * a task runs in, so each lane can own buffers and reuse them task after task. After the first
 * failure no further task starts and `signal` is aborted with it (running tasks may stop early);
 * the returned promise rejects with that failure once every running task has settled.
 */
export async function forEachLimited<T>(items: Iterable<T>, limit: number, task: (item: T, slot: number, signal: AbortSignal) => Promise<void>): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`)
  const iterator = items[Symbol.iterator]()
  const failed = new AbortController()
  const lane = async (slot: number) => {
    while (!failed.signal.aborted) {
      const next = iterator.next()
      if (next.done) return
      try {
        await task(next.value, slot, failed.signal)
      } catch (err) {
        // The first failure is the one reported; later ones are usually its consequences.
        if (!failed.signal.aborted) failed.abort(err)
      }
    }
  }
  await Promise.all(Array.from({ length: limit }, (_, slot) => lane(slot)))
  if (failed.signal.aborted) throw failed.signal.reason
}
