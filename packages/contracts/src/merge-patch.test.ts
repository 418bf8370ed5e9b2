import { describe, expect, it } from 'vitest'
import { applyMergePatch, mergePatchOf } from './merge-patch.ts'

const stored = {
  cmi: {
    location: 'chapter-2',
    suspend_data: 'x'.repeat(64_000),
    exit: '',
    interactions: [{ id: 'q1', result: 'correct' }],
    learner_preference: { audio_level: '1', language: '' },
  },
}

describe('merge patches of a cmi tree', () => {
  it('carries only what changed: the big unchanged suspend data stays out, and the patch rebuilds the tree', () => {
    const now = {
      cmi: { ...stored.cmi, location: 'chapter-3', exit: 'suspend', interactions: [...stored.cmi.interactions, { id: 'q2', result: 'wrong' }] },
    }
    const patch = mergePatchOf(stored, now)
    expect(patch).toEqual({ cmi: { location: 'chapter-3', exit: 'suspend', interactions: now.cmi.interactions } })
    expect(JSON.stringify(patch).length).toBeLessThan(200)
    expect(applyMergePatch(stored, patch)).toEqual(now)
  })

  it('is empty between equal trees, and removes members as null', () => {
    expect(mergePatchOf(stored, structuredClone(stored))).toEqual({})
    const { learner_preference: _gone, ...rest } = stored.cmi
    const patch = mergePatchOf(stored, { cmi: rest })
    expect(patch).toEqual({ cmi: { learner_preference: null } })
    expect(applyMergePatch(stored, patch)).toEqual({ cmi: rest })
  })

  it('replaces an object by a value and a value by an object', () => {
    const from = { a: { b: '1' }, c: '2' }
    const to = { a: '3', c: { d: '4' } }
    expect(applyMergePatch(from, mergePatchOf(from, to))).toEqual(to)
  })

  it('keeps a "__proto__" member as data, never as a prototype', () => {
    const patch = JSON.parse('{"cmi":{"__proto__":{"polluted":"yes"}}}') as Record<string, unknown>
    const out = applyMergePatch({ cmi: {} }, patch) as { cmi: Record<string, unknown> }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(out.cmi)).toBe(Object.prototype)
    expect(Object.hasOwn(out.cmi, '__proto__')).toBe(true)
  })

  it('leaves its arguments as they were', () => {
    const target = structuredClone(stored)
    applyMergePatch(target, { cmi: { location: null, exit: 'normal' } })
    expect(target).toEqual(stored)
  })
})
