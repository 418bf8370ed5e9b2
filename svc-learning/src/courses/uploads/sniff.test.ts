import { open } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../scorm-packages/zips.test-support.ts'
import { contentMatches, contentTypeOf, extensionOf, isAllowedExtension, isPackageExtension, type ModuleExtension } from './sniff.ts'

const hex = (s: string) =>
  Uint8Array.from(
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((b) => parseInt(b, 16)),
  )

/** The first 16 bytes of real files of each kind. */
const heads = {
  pdf: hex('25 50 44 46 2d 31 2e 37 0a 25 e2 e3 cf d3 0a 31'), // %PDF-1.7
  pptx: hex('50 4b 03 04 14 00 06 00 08 00 00 00 21 00 a4 e5'), // PowerPoint: zip with [Content_Types].xml first
  mp4: hex('00 00 00 20 66 74 79 70 69 73 6f 6d 00 00 02 00'), // ftypisom
  webm: hex('1a 45 df a3 9f 42 86 81 01 42 f7 81 01 42 f2 81'), // EBML
  mp3: hex('49 44 33 04 00 00 00 00 00 23 54 53 53 45 00 00'), // ID3v2.4 tag
  wav: hex('52 49 46 46 24 08 00 00 57 41 56 45 66 6d 74 20'), // RIFF....WAVEfmt
  zip: hex('50 4b 03 04 0a 00 00 00 00 00 00 00 21 00 cb 9d'),
  xml: Uint8Array.from(Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<courseStructure')), // a cmi5.xml
} satisfies Record<ModuleExtension, Uint8Array>
const png = hex('89 50 4e 47 0d 0a 1a 0a 00 00 00 0d 49 48 44 52')

describe('extensionOf', () => {
  it('gives the lower-case extension without the dot', () => {
    expect(extensionOf('Slides.PPTX')).toBe('pptx')
    expect(extensionOf('course.v2.zip')).toBe('zip')
    expect(extensionOf('C:\\Users\\me\\talk.Mp4')).toBe('mp4')
  })

  it('gives an empty string when there is no extension', () => {
    expect(extensionOf('README')).toBe('')
    expect(extensionOf('.bashrc')).toBe('')
    expect(extensionOf('name.')).toBe('')
    expect(extensionOf('folder.d/file')).toBe('')
  })
})

describe('isAllowedExtension', () => {
  it('allows the eight module types only', () => {
    for (const ext of ['pdf', 'pptx', 'mp4', 'webm', 'mp3', 'wav', 'zip', 'xml']) expect(isAllowedExtension(ext)).toBe(true)
    for (const ext of ['exe', 'html', 'PDF', 'ppt', '']) expect(isAllowedExtension(ext)).toBe(false)
  })
})

describe('contentMatches', () => {
  it.each(Object.entries(heads))('accepts the real first bytes of a .%s file', (ext, head) => {
    expect(contentMatches(ext as ModuleExtension, head)).toBe(true)
  })

  it('accepts an MPEG audio frame without an ID3 tag', () => {
    expect(contentMatches('mp3', hex('ff fb 90 64 00 0f f0 00 00 69 00 00 00 08 00 00'))).toBe(true)
    expect(contentMatches('mp3', hex('ff f3 28 c4 00 00 00 03 48 00 00 00 00 4c 41 4d'))).toBe(true)
  })

  it('accepts an empty zip but not an empty presentation', () => {
    const empty = hex('50 4b 05 06 00 00 00 00 00 00 00 00 00 00 00 00')
    expect(contentMatches('zip', empty)).toBe(true)
    expect(contentMatches('pptx', empty)).toBe(false)
  })

  it('accepts a real SCORM package', async () => {
    const file = await open(fixturePath('golf-scorm12-RuntimeBasicCalls.zip'))
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(16), 0, 16, 0)
      expect(contentMatches('zip', buffer.subarray(0, bytesRead))).toBe(true)
    } finally {
      await file.close()
    }
  })

  it('accepts XML after a byte order mark or whitespace, in UTF-8 or UTF-16, and nothing else as XML', () => {
    expect(contentMatches('xml', Uint8Array.from(Buffer.from('\uFEFF<courseStructure xmlns="x">')))).toBe(true)
    expect(contentMatches('xml', Uint8Array.from(Buffer.from(' \r\n\t<courseStructure>')))).toBe(true)
    expect(contentMatches('xml', Uint8Array.from(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0"?>', 'utf16le')])))).toBe(true)
    expect(contentMatches('xml', Uint8Array.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('<?xml', 'utf16le').swap16()])))).toBe(true)
    expect(contentMatches('xml', Uint8Array.from(Buffer.from('{"course": 1}')))).toBe(false)
    expect(contentMatches('xml', Uint8Array.from(Buffer.from('course <au>')))).toBe(false)
    expect(contentMatches('xml', new Uint8Array())).toBe(false)
  })

  it('tells packages (a zip, a cmi5.xml alone) from other module files', () => {
    expect((Object.keys(heads) as ModuleExtension[]).filter(isPackageExtension)).toEqual(['zip', 'xml'])
  })

  it('rejects a PNG named .pdf', () => {
    expect(contentMatches('pdf', png)).toBe(false)
  })

  it('rejects every other kind of content for each type', () => {
    for (const ext of Object.keys(heads)) {
      const others = Object.entries(heads).filter(([other]) => other !== ext && !(['zip', 'pptx'].includes(ext) && ['zip', 'pptx'].includes(other)))
      for (const [, head] of others) expect(contentMatches(ext as ModuleExtension, head), `${ext} vs ${Buffer.from(head).toString('hex')}`).toBe(false)
      expect(contentMatches(ext as ModuleExtension, png)).toBe(false)
    }
  })

  it('rejects files too short to tell', () => {
    expect(contentMatches('pdf', hex('25 50 44'))).toBe(false)
    expect(contentMatches('mp4', hex('00 00 00 20 66 74'))).toBe(false)
    expect(contentMatches('wav', hex('52 49 46 46'))).toBe(false)
    expect(contentMatches('mp3', new Uint8Array())).toBe(false)
  })
})

describe('contentTypeOf', () => {
  it('gives the content type each module type is served with', () => {
    expect(Object.fromEntries((Object.keys(heads) as ModuleExtension[]).map((e) => [e, contentTypeOf(e)]))).toEqual({
      pdf: 'application/pdf',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      mp4: 'video/mp4',
      webm: 'video/webm',
      mp3: 'audio/mpeg',
      wav: 'audio/wav',
      zip: 'application/zip',
      xml: 'application/xml',
    })
  })
})
