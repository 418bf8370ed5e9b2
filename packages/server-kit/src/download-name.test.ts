import { describe, expect, it } from 'vitest'
import { contentDisposition, downloadName } from './download-name.ts'

describe('downloadName', () => {
  it('gives a file the extension of its stored type, whatever the uploader named it', () => {
    expect(downloadName('poly.html', 'application/pdf')).toBe('poly.pdf')
    expect(downloadName('poly.svg', 'application/pdf')).toBe('poly.pdf')
    expect(downloadName('scan.PDF', 'application/pdf')).toBe('scan.PDF')
    expect(downloadName('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg')
    expect(downloadName('photo.png', 'image/jpeg')).toBe('photo.jpg')
    expect(downloadName('certificate', 'image/png')).toBe('certificate.png')
    // A dot with digits after it is part of the name, not an extension.
    expect(downloadName('Cert v1.2', 'application/pdf')).toBe('Cert v1.2.pdf')
    // A type it does not know keeps the name's own extension.
    expect(downloadName('notes.txt', 'application/octet-stream')).toBe('notes.txt')
  })

  it('drops control, bidi and other invisible characters, so the name reads as it is', () => {
    expect(downloadName('report\u202Efdp.exe', 'application/pdf')).toBe('reportfdp.pdf')
    expect(downloadName('a\u2066b\u2069c\u200f\u200e\u061c.pdf', 'application/pdf')).toBe('abc.pdf')
    expect(downloadName('line\r\nbreak\t\u0000\u007f\u0085\u2028.pdf', 'application/pdf')).toBe('linebreak.pdf')
    expect(downloadName('zero\u200bwidth\ufeff.png', 'image/png')).toBe('zerowidth.png')
    expect(downloadName('Zertifikat Müller (final).pdf', 'application/pdf')).toBe('Zertifikat Müller (final).pdf')
  })

  it('names no folder, hides nothing, and falls back when nothing is left', () => {
    expect(downloadName('../../etc/passwd.pdf', 'application/pdf')).toBe('_.._etc_passwd.pdf')
    expect(downloadName('.hidden.pdf', 'application/pdf')).toBe('hidden.pdf')
    expect(downloadName('trailing. . .html', 'application/pdf')).toBe('trailing.pdf')
    expect(downloadName('\u202E \u200b', 'application/pdf', 'proof')).toBe('proof.pdf')
    expect(downloadName('.html', 'application/pdf')).toBe('html.pdf')
    expect(downloadName('', 'image/png', 'proof')).toBe('proof.png')
    expect(downloadName('x'.repeat(500) + '.pdf', 'application/pdf')).toBe('x'.repeat(150) + '.pdf')
  })
})

describe('contentDisposition', () => {
  it('sends the safe name as ASCII and exactly (RFC 5987)', () => {
    expect(contentDisposition('attachment', 'Rückblick "Q3" 100%.html', 'application/pdf')).toBe(
      `attachment; filename="R_ckblick _Q3_ 100_.pdf"; filename*=UTF-8''R%C3%BCckblick%20%22Q3%22%20100%25.pdf`,
    )
    expect(contentDisposition('inline', 'report\u202Efdp.exe', 'application/pdf')).toBe(`inline; filename="reportfdp.pdf"; filename*=UTF-8''reportfdp.pdf`)
    expect(contentDisposition('attachment', "it's (final)*.xlsx")).toBe(`attachment; filename="it's (final)*.xlsx"; filename*=UTF-8''it%27s%20%28final%29%2A.xlsx`)
  })
})
