import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { forEachLimited } from './concurrency.ts'

describe('forEachLimited', () => {
  it('runs every item once, in order, never more than the limit at once', async () => {
    const started: number[] = []
    let running = 0
    let most = 0
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item)
      most = Math.max(most, ++running)
      await sleep(item % 3)
      running--
    })
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(most).toBe(3)
  })

  it('gives each running task its own slot, so a slot owner can reuse its buffers', async () => {
    const busy = new Set<number>()
    const slots = new Set<number>()
    await forEachLimited(
      Array.from({ length: 20 }, (_, i) => i),
      2,
      async (item, slot) => {
        expect(busy.has(slot)).toBe(false)
        busy.add(slot)
        slots.add(slot)
        await sleep(item % 2)
        busy.delete(slot)
      },
    )
    expect([...slots].sort()).toEqual([0, 1])
  })

  it('starts nothing after the first failure, tells the running tasks, waits for them and rejects with that failure', async () => {
    const started: number[] = []
    let sawAbort = false
    let settled = 0
    const run = forEachLimited([1, 2, 3, 4, 5], 2, async (item, _slot, signal) => {
      started.push(item)
      try {
        if (item === 1) {
          // Still running when item 2 fails: sees the signal and finishes afterwards.
          while (!signal.aborted) await sleep(1)
          sawAbort = signal.reason instanceof Error && signal.reason.message === 'item 2 failed'
          await sleep(5)
          throw new Error('item 1 stopped')
        }
        throw new Error(`item ${item} failed`)
      } finally {
        settled++
      }
    })
    await expect(run).rejects.toThrow('item 2 failed')
    expect(started).toEqual([1, 2])
    expect(sawAbort).toBe(true)
    expect(settled).toBe(2)
  })

  it('does nothing for no items and refuses a limit below one', async () => {
    await forEachLimited([], 4, async () => expect.unreachable())
    await expect(forEachLimited([1], 0, async () => undefined)).rejects.toThrow(RangeError)
  })
})
