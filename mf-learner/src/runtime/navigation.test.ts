import { describe, expect, it } from 'vitest'
import { itemAfter, launchableItems, parseNavRequest } from './navigation.ts'
import { item } from '../test-support/index.ts'

const tree = [
  item('intro', '/c/intro.html'),
  item('module1', null, [item('m1a', '/c/a.html'), item('m1b', '/c/b.html', [item('m1b1', '/c/b1.html')])]),
  item('empty_cluster', null, []),
  item('test', '/c/test.html?x=1'),
]

describe('launchable items', () => {
  it('lists every item with an href in tree order, clusters left out', () => {
    expect(launchableItems(tree).map((i) => i.identifier)).toEqual(['intro', 'm1a', 'm1b', 'm1b1', 'test'])
  })
})

describe('item after a navigation request', () => {
  it('continue leads to the next launchable item across clusters', () => {
    expect(itemAfter(tree, 'intro', { kind: 'continue' })?.identifier).toBe('m1a')
    expect(itemAfter(tree, 'm1b1', { kind: 'continue' })?.identifier).toBe('test')
  })
  it('previous leads to the previous launchable item', () => {
    expect(itemAfter(tree, 'm1a', { kind: 'previous' })?.identifier).toBe('intro')
  })
  it('continue after the last item and previous before the first lead nowhere', () => {
    expect(itemAfter(tree, 'test', { kind: 'continue' })).toBeNull()
    expect(itemAfter(tree, 'intro', { kind: 'previous' })).toBeNull()
  })
  it('choice and jump lead to a launchable target only', () => {
    expect(itemAfter(tree, 'intro', { kind: 'choice', target: 'test' })?.identifier).toBe('test')
    expect(itemAfter(tree, 'test', { kind: 'jump', target: 'm1a' })?.identifier).toBe('m1a')
    expect(itemAfter(tree, 'intro', { kind: 'choice', target: 'module1' })).toBeNull()
    expect(itemAfter(tree, 'intro', { kind: 'choice', target: 'nope' })).toBeNull()
  })
  it('exit requests and an unknown current item lead nowhere', () => {
    for (const kind of ['exit', 'exitAll', 'abandon', 'abandonAll', 'suspendAll'] as const) {
      expect(itemAfter(tree, 'intro', { kind })).toBeNull()
    }
    expect(itemAfter(tree, 'ghost', { kind: 'continue' })).toBeNull()
  })
})

describe('adl.nav.request values', () => {
  it('parse into navigation requests', () => {
    expect(parseNavRequest('continue')).toEqual({ kind: 'continue' })
    expect(parseNavRequest('suspendAll')).toEqual({ kind: 'suspendAll' })
    expect(parseNavRequest('{target=assessment_item}jump')).toEqual({ kind: 'jump', target: 'assessment_item' })
    expect(parseNavRequest('{target=a.b-c}choice')).toEqual({ kind: 'choice', target: 'a.b-c' })
    expect(parseNavRequest('_none_')).toBeNull()
    expect(parseNavRequest('start')).toBeNull()
  })
})
