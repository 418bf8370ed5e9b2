import JSZip from 'jszip'
import { strFromU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { CAPTIVATE_MESSAGES, parseCaptivateProject } from '@portal/contracts/captivate'
import { captivateFixture } from '@portal/contracts/test-support/captivate-fixture'
import { analyzePackage, editsFrom, inspectPackage, NotAZipError, rewritePackage } from './package-zip.ts'
import { cmi5Xml } from '../cmi5.test-support.ts'

const fixture = captivateFixture()

/** Each entry's compression method, compressed size and CRC as the archive stores them. */
async function entries(data: Uint8Array | Blob) {
  const zip = await JSZip.loadAsync(data, { createFolders: false })
  return Object.fromEntries(
    Object.values(zip.files).map((f) => {
      const d = (f as unknown as { _data: { compression: { magic: string }; compressedSize: number; crc32: number } })._data
      return [f.name, { method: d.compression.magic === '\x08\x00' ? 'DEFLATE' : 'STORE', compressedSize: d.compressedSize, crc32: d.crc32 }]
    }),
  )
}

describe('pre-upload package editing', () => {
  it('analyzes the package in the archive', async () => {
    const project = await analyzePackage(fixture)
    expect(project.slides.filter((s) => s.video).map((s) => s.name)).toEqual(['Pump overview', 'Lockout procedure', 'Field walk-through (long)'])
  })

  it('rewrites only the project files; every other entry keeps its compressed bytes', async () => {
    const edits = editsFrom(await analyzePackage(fixture), [
      { id: 'Slide1002', name: 'Pump overview', durationInFrames: 900 },
      { id: 'Slide1004', name: 'Walk-through', durationInFrames: 3 * 30 },
    ])
    expect(edits).toEqual([{ slideId: 'Slide1004', name: 'Walk-through', durationInFrames: 90 }])
    const { blob, project } = await rewritePackage(fixture, edits)
    expect(project.slides[3]).toMatchObject({ name: 'Walk-through', durationInFrames: 90 })
    const out = new Uint8Array(await blob.arrayBuffer())
    const files = unzipSync(out)
    const reread = parseCaptivateProject({ projectTxt: strFromU8(files['project.txt']!), projectJs: strFromU8(files['assets/js/project.js']!) })
    expect(reread.slides.map((s) => s.to)).toEqual([150, 1050, 2400, 2490, 3090, 3330])
    const [before, after] = [await entries(fixture), await entries(out)]
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort())
    for (const name of Object.keys(before)) {
      if (name === 'project.txt' || name === 'assets/js/project.js') expect(after[name]!.crc32, name).not.toBe(before[name]!.crc32)
      else expect(after[name], name).toEqual(before[name])
    }
  })

  it('keeps stored (uncompressed) media stored', async () => {
    const unzipped = unzipSync(fixture)
    const stored = zipSync(Object.fromEntries(Object.entries(unzipped).map(([n, d]) => [n, [d, { level: n.endsWith('.mp4') ? 0 : 6 }]])) as Parameters<typeof zipSync>[0])
    const { blob } = await rewritePackage(stored, [{ slideId: 'Slide1003', name: 'Lockout' }])
    const after = await entries(new Uint8Array(await blob.arrayBuffer()))
    expect(after['assets/videos/walkthrough.mp4']!.method).toBe('STORE')
    expect(after['assets/videos/walkthrough.mp4']!.compressedSize).toBe(unzipped['assets/videos/walkthrough.mp4']!.length)
  })

  it('refuses what it cannot read, before writing anything', async () => {
    await expect(analyzePackage(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(NotAZipError)
    const noProject = zipSync({ 'imsmanifest.xml': unzipSync(fixture)['imsmanifest.xml']! })
    await expect(analyzePackage(noProject)).rejects.toThrow(CAPTIVATE_MESSAGES.unreadable)
    await expect(rewritePackage(fixture, [{ slideId: 'Slide1002', durationInFrames: 10 }])).rejects.toThrow()
  })
})

describe('inspectPackage', () => {
  const zip = (files: Record<string, string>) => zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)])))

  it('finds a cmi5 course at the root or in the single top folder, and counts its AUs', async () => {
    expect(await inspectPackage(zip({ 'cmi5.xml': cmi5Xml(3), 'au0.html': 'x' }))).toEqual({ cmi5: { course: true, title: 'Rocks & stones', auCount: 3 } })
    expect(await inspectPackage(zip({ 'rocks/cmi5.xml': cmi5Xml(1), 'rocks/au0.html': 'x' }))).toEqual({ cmi5: { course: true, title: 'Rocks & stones', auCount: 1 } })
  })

  it('reads a package with imsmanifest.xml beside cmi5.xml as SCORM (as the server does): no Captivate project in it', async () => {
    const err = await inspectPackage(zip({ 'cmi5.xml': cmi5Xml(), 'imsmanifest.xml': '<manifest/>' })).catch((e: unknown) => e)
    expect(err).toMatchObject({ message: CAPTIVATE_MESSAGES.unreadable })
  })

  it('gives the Captivate project of a Captivate package, and fails on what is no zip', async () => {
    const found = await inspectPackage(fixture)
    expect('project' in found && found.project.slides.length).toBeGreaterThan(0)
    await expect(inspectPackage(new TextEncoder().encode('<courseStructure/>'))).rejects.toBeInstanceOf(NotAZipError)
  })
})
