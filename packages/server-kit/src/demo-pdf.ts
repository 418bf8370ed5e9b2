/** A page of the demo handbook: a heading and paragraphs of plain ASCII text (wrapped here). */
export interface PdfPage {
  heading: string
  paragraphs: string[]
}

const escapeText = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?')

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines
}

/** The content stream of one page: Helvetica-Bold heading, Helvetica body, on US Letter. */
function pageContent(page: PdfPage, pageNo: number, pageCount: number): string {
  const ops = ['BT', '/F2 20 Tf', '72 712 Td', `(${escapeText(page.heading)}) Tj`, '/F1 11 Tf', '0 -30 Td']
  for (const paragraph of page.paragraphs) {
    for (const line of wrap(paragraph, 88)) ops.push(`(${escapeText(line)}) Tj`, '0 -15 Td')
    ops.push('0 -9 Td')
  }
  ops.push('ET', 'BT', '/F1 9 Tf', '72 40 Td', `(Page ${pageNo} of ${pageCount}) Tj`, 'ET')
  return ops.join('\n')
}

/**
 * A minimal valid PDF 1.4 written by hand: catalog, page tree, two standard fonts, one page object
 * and one content stream per page, and a cross-reference table with exact byte offsets.
 */
export function buildPdf(title: string, pages: PdfPage[]): Buffer {
  const objects: string[] = [] // objects[i] is object number i + 1
  const pageIds = pages.map((_, i) => 5 + i * 2)
  objects.push('<< /Type /Catalog /Pages 2 0 R >>')
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`)
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>')
  pages.forEach((page, i) => {
    const content = pageContent(page, i + 1, pages.length)
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`)
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`)
  })
  const info = objects.push(`<< /Title (${escapeText(title)}) /Producer (Learning portal demo) >>`)

  // A binary comment after the header marks the file as binary for transfer tools.
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'))
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xrefAt = Buffer.byteLength(pdf, 'latin1')
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${info} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`
  return Buffer.from(pdf, 'latin1')
}
