import { describe, expect, it } from 'vitest'
import { ttlCache } from './ttl-cache.ts'

describe('ttlCache', () => {
  it('loads once per key while fresh, again once stale, and starts over past its size', async () => {
    let t = 0
    const loads: string[] = []
    const get = ttlCache({ ttlMs: 100, max: 2, now: () => t }, async (k: string) => (loads.push(k), `${k}@${t}`))
    expect([await get('a'), await get('a'), await get('b')]).toEqual(['a@0', 'a@0', 'b@0'])
    t = 99
    expect(await get('a')).toBe('a@0')
    t = 100
    expect(await get('a')).toBe('a@100')
    await get('c') // a third key: the cache starts over
    expect(await get('b')).toBe('b@100')
    expect(loads).toEqual(['a', 'b', 'a', 'c', 'b'])
  })
})
