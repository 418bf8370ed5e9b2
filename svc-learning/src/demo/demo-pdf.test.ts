import { describe, expect, it } from 'vitest'
import { buildDemoHandbook } from './demo-course.ts'
import { buildPdf } from '@portal/server-kit/demo'

/** Checks the structure a PDF reader relies on: header, xref offsets, startxref, trailer. */
function checkStructure(pdf: Buffer) {
  const text = pdf.toString('latin1')
  expect(text.startsWith('%PDF-1.4\n')).toBe(true)
  expect(text.endsWith('%%EOF\n')).toBe(true)
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1])
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n')
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref))!
  expect(Number(first)).toBe(0)
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count))
  expect(entries[0]).toBe('0000000000 65535 f ')
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/)
    const offset = Number(entry.slice(0, 10))
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`)
  })
  expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R /Info \\d+ 0 R >>`))
  // Every stream's /Length is its exact byte length.
  for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = m.index + m[0].length
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + '\nendstream'.length)).toBe('\nendstream')
  }
  return { objects: Number(count) - 1 }
}

describe('the hand-written PDF', () => {
  it('has a header, exact cross-reference offsets and stream lengths', () => {
    const { objects } = checkStructure(buildDemoHandbook())
    expect(objects).toBe(4 + 2 * 2 + 1) // catalog, pages, two fonts, two pages with their contents, info
  })

  it('escapes parentheses and backslashes and replaces what Helvetica cannot show', () => {
    const pdf = buildPdf('A (b) \\ c', [{ heading: 'Costs (approx.) – 5 €', paragraphs: ['Path C:\\tools (new)'] }])
    checkStructure(pdf)
    const text = pdf.toString('latin1')
    expect(text).toContain('(Costs \\(approx.\\) ? 5 ?) Tj')
    expect(text).toContain('(Path C:\\\\tools \\(new\\)) Tj')
  })
})
