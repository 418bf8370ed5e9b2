import type { TrackerClock } from './tracker.ts'

/** A clock whose time moves only when the test says so; timers fire in order as it moves. */
export class FakeClock implements TrackerClock {
  time = 1_000_000
  private seq = 0
  private timers = new Map<number, { at: number; fn: () => void; every: number | null }>()
  now = () => this.time
  setTimeout = (fn: () => void, ms: number) => this.add(fn, ms, null)
  setInterval = (fn: () => void, ms: number) => this.add(fn, ms, ms)
  clearTimeout = (h: unknown) => void this.timers.delete(h as number)
  clearInterval = (h: unknown) => void this.timers.delete(h as number)
  get pending() {
    return this.timers.size
  }
  private add(fn: () => void, ms: number, every: number | null) {
    const id = ++this.seq
    this.timers.set(id, { at: this.time + ms, fn, every })
    return id
  }
  advance(ms: number) {
    const end = this.time + ms
    for (;;) {
      let next: [number, { at: number; fn: () => void; every: number | null }] | null = null
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry
      if (!next) break
      const [id, t] = next
      this.time = t.at
      if (t.every === null) this.timers.delete(id)
      else t.at += t.every
      t.fn()
    }
    this.time = end
  }
}
