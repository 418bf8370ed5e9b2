import { describe, expect, it } from 'vitest'
import { AppError } from './errors.ts'
import { MAX_INPUT_DEPTH, inputProblem, parseJsonInput, storableJson, storableText } from './input.ts'

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('inputProblem', () => {
  it('finds a NUL or a lone surrogate in any string or key, and nesting deeper than the limit', () => {
    expect(inputProblem({ a: ['x', { b: 'y \ud83d\ude00' }], n: 1, t: true, z: null })).toBeNull()
    for (const value of ['a\u0000', ['\ud800'], { k: { v: 'x\udfff' } }, { 'k\u0000': 1 }, { ['\udc00']: 1 }]) expect(inputProblem(value)).toBe('unstorable_text')
    expect(inputProblem(JSON.parse(nested(MAX_INPUT_DEPTH)))).toBeNull()
    expect(inputProblem(JSON.parse(nested(MAX_INPUT_DEPTH + 1)))).toBe('too_deep')
  })
})

describe('parseJsonInput', () => {
  it('parses JSON read by hand with the checks of validate(): 400 invalid_json, invalid_text or validation_failed', () => {
    expect(parseJsonInput('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] })
    for (const [text, code] of [
      ['{"a":', 'invalid_json'],
      ['{"a\\u0000":1}', 'invalid_text'],
      ['["\\udc00"]', 'invalid_text'],
      [nested(100_000), 'validation_failed'],
    ] as const) {
      let caught: unknown
      try {
        parseJsonInput(text)
      } catch (err) {
        caught = err
      }
      expect(caught, text.slice(0, 40)).toBeInstanceOf(AppError)
      expect([(caught as AppError).status, (caught as AppError).code]).toEqual([400, code])
    }
  })
})

describe('storableText and storableJson', () => {
  it('replace NUL and lone surrogates with U+FFFD and keep everything else', () => {
    expect(storableText('a\u0000b\ud800c \ud83d\ude00')).toBe('a\ufffdb\ufffdc \ud83d\ude00')
    expect(storableText('plain')).toBe('plain')
    const json = storableJson({ title: 'T\u0000', items: [{ ['id\ud800']: 'x\udc00', n: 1 }] })
    expect(JSON.parse(json)).toEqual({ title: 'T\ufffd', items: [{ ['id\ufffd']: 'x\ufffd', n: 1 }] })
    expect(inputProblem(JSON.parse(json))).toBeNull()
  })
})
