/** localStorage for tests in Node (stub it with `vi.stubGlobal('localStorage', new MemoryStorage())`). */
export class MemoryStorage {
  map = new Map<string, string>()
  getItem(k: string) {
    return this.map.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.map.set(k, v)
  }
  removeItem(k: string) {
    this.map.delete(k)
  }
}
