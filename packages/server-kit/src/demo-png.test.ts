import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildPng } from './demo-png.ts'

describe('the hand-written PNG', () => {
  it('has the signature, chunks with their CRCs, and the pixels it was given', () => {
    const png = buildPng(3, 2, (x, y) => [x * 10, y * 20, 255])
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const chunks: { type: string; data: Buffer }[] = []
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at)
      const type = png.subarray(at + 4, at + 8).toString('ascii')
      const data = png.subarray(at + 8, at + 8 + length)
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)) >>> 0)
      chunks.push({ type, data })
      at += 12 + length
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(chunks[0]!.data.readUInt32BE(0)).toBe(3)
    expect(chunks[0]!.data.readUInt32BE(4)).toBe(2)
    const rows = inflateSync(chunks[1]!.data)
    expect([...rows.subarray(10, 20)]).toEqual([0, 0, 20, 255, 10, 20, 255, 20, 20, 255])
  })
})
