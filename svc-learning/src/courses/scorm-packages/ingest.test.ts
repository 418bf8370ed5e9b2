import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import yazl from 'yazl'
import { createLocalStorage, type Storage } from '@portal/server-kit'
import { DEFAULT_EXTRACT_LIMITS, ingestPackage, PackageError, type ExtractLimits } from './index.ts'
import { CMI5_MESSAGES, cmi5Aus, MAX_CMI5_AUS, walkItems } from '@portal/contracts'
import { aiccCourse, cmi5Xml, fixturePath, rawZip, readZipEntry, type RawEntry } from './zips.test-support.ts'
import { cmi5Structure } from '../cmi5-packages/cmi5.test-support.ts'

let dir: string
let storageRoot: string
let storage: Storage
let n = 0

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ingest-test-'))
  storageRoot = join(dir, 'storage')
  storage = createLocalStorage(storageRoot)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Every file under a storage prefix, as sorted relative paths ([] when the prefix does not exist). */
async function filesUnder(prefix: string): Promise<string[]> {
  try {
    const entries = await readdir(join(storageRoot, prefix), { recursive: true, withFileTypes: true })
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(join(storageRoot, prefix).length + 1))
      .sort()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
}

async function writeZip(bytes: Buffer): Promise<string> {
  const path = join(dir, `p${++n}.zip`)
  await writeFile(path, bytes)
  return path
}

/** A zip written by yazl (deflated unless `compress: false`). */
async function yazlZip(entries: { name: string; data: Buffer | string; compress?: boolean }[]): Promise<string> {
  const zip = new yazl.ZipFile()
  for (const e of entries) zip.addBuffer(typeof e.data === 'string' ? Buffer.from(e.data) : e.data, e.name, { compress: e.compress ?? true })
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return writeZip(Buffer.concat(chunks))
}

const manifest = (href = 'index.html', params = '') => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="t" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Test course</title>
    <item identifier="i1" identifierref="r1"${params ? ` parameters="${params}"` : ''}><title>Page</title></item>
  </organization></organizations>
  <resources><resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="${href}"/></resources>
</manifest>`

const page = '<!doctype html><title>x</title>'
const goodEntries = (): RawEntry[] => [
  { name: 'imsmanifest.xml', data: manifest() },
  { name: 'index.html', data: page },
]

async function rejects(zipPath: string, limits?: Partial<ExtractLimits>, store: Storage = storage): Promise<PackageError> {
  const prefix = `modules/${++n}/content`
  const err = await ingestPackage({ zipPath, storage: store, prefix, limits }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(PackageError)
  expect(await filesUnder(prefix)).toEqual([])
  return err as PackageError
}

const fixtures = [
  {
    name: 'golf-scorm12-RuntimeBasicCalls.zip',
    title: 'Golf Explained - Run-time Basic Calls',
    version: '1.2',
    edition: '1.2',
    scoCount: 1,
    fileCount: 44,
    launch: 'shared/launchpage.html',
  },
  {
    name: 'golf-scorm12-RuntimeMinimumCalls.zip',
    title: 'Golf Explained - Minimum Run-time Calls',
    version: '1.2',
    edition: '1.2',
    scoCount: 18,
    fileCount: 44,
    launch: 'Playing/Playing.html',
  },
  {
    name: 'golf-scorm2004-3rd-RuntimeBasicCalls.zip',
    title: 'Golf Explained - Run-time Basic Calls',
    version: '2004',
    edition: '2004 3rd Edition',
    scoCount: 1,
    fileCount: 69,
    launch: 'shared/launchpage.html',
  },
  {
    name: 'golf-scorm2004-3rd-RunTimeAdvancedCalls.zip',
    title: 'Golf Explained - Run-time Advanced Calls',
    version: '2004',
    edition: '2004 3rd Edition',
    scoCount: 1,
    fileCount: 69,
    launch: 'shared/launchpage.html',
  },
  {
    name: 'golf-scorm2004-3rd-SequencingForcedSequential.zip',
    title: 'Golf Explained - Sequencing Forced Order',
    version: '2004',
    edition: '2004 3rd Edition',
    scoCount: 5,
    fileCount: 69,
    launch: 'shared/launchpage.html?content=playing',
  },
  {
    name: 'golf-scorm2004-4th-SequencingPostTestRollup4thEd.zip',
    title: 'Golf Explained - 4th Edition Features',
    version: '2004',
    edition: '2004 4th Edition',
    scoCount: 5,
    fileCount: 59,
    launch: 'shared/launchpage.html?content=playing',
  },
  { name: 'jleyva-scorm-debugger-scorm12.zip', title: 'The organization', version: '1.2', edition: '1.2', scoCount: 8, fileCount: 48, launch: 'index.html' },
]

describe('ingestPackage on the real packages', () => {
  it.each(fixtures)('extracts $name and describes it', async (f) => {
    const prefix = `modules/fixture-${++n}/content`
    const info = await ingestPackage({ zipPath: fixturePath(f.name), storage, prefix })
    expect(info).toMatchObject({ version: f.version, edition: f.edition, title: f.title, scoCount: f.scoCount, fileCount: f.fileCount })
    expect([...walkItems(info.items)].find((i) => i.href)?.href).toBe(f.launch)
    const written = await filesUnder(prefix)
    expect(written).toHaveLength(f.fileCount)
    expect(written).toContain('imsmanifest.xml')
    const launchPath = f.launch.replace(/\?.*$/, '')
    expect(written).toContain(launchPath)
    // Byte for byte what the zip holds; totalBytes is the real extracted size.
    const stored = await readFile(join(storageRoot, prefix, launchPath))
    expect(stored.equals(await readZipEntry(fixturePath(f.name), launchPath))).toBe(true)
    let sum = 0
    for (const p of written) sum += (await readFile(join(storageRoot, prefix, p))).length
    expect(info.totalBytes).toBe(sum)
  })
})

describe('ingestPackage', () => {
  it('accepts a package zipped with one top folder and stores it without that folder', async () => {
    const zipPath = await yazlZip([
      { name: 'My Course/imsmanifest.xml', data: manifest('pages/start.html', '?lang=en') },
      { name: 'My Course/pages/start.html', data: page },
      { name: '__MACOSX/My Course/._start.html', data: 'junk' },
    ])
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath, storage, prefix })
    expect(info).toMatchObject({ title: 'Test course', fileCount: 2, scoCount: 1, items: [{ href: 'pages/start.html?lang=en' }] })
    expect(await filesUnder(prefix)).toEqual(['imsmanifest.xml', 'pages/start.html'])
  })

  it('finds launch files whose href is percent-encoded', async () => {
    const zipPath = await yazlZip([
      { name: 'imsmanifest.xml', data: manifest('my%20page.html') },
      { name: 'my page.html', data: page },
    ])
    const info = await ingestPackage({ zipPath, storage, prefix: `modules/${++n}/content` })
    expect(info.items[0].href).toBe('my%20page.html')
  })

  it('matches decomposed (macOS) file names with composed hrefs and stores them composed', async () => {
    const nfc = 'leçon/café.html'
    const zipPath = await writeZip(
      rawZip([
        { name: 'imsmanifest.xml', data: manifest(nfc) },
        { name: nfc.normalize('NFD'), data: page },
      ]),
    )
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath, storage, prefix })
    expect(info.items[0].href).toBe(nfc)
    expect((await filesUnder(prefix)).map((p) => p.normalize('NFC') === p)).toEqual([true, true])
    expect(await filesUnder(prefix)).toContain(nfc)
  })

  it('rejects a file that is not a zip', async () => {
    const err = await rejects(await writeZip(Buffer.from('%PDF-1.7 not a zip at all')))
    expect(err.message).toBe('The package is not a valid zip file')
  })

  it('rejects a truncated zip', async () => {
    const whole = rawZip(goodEntries())
    const err = await rejects(await writeZip(whole.subarray(0, whole.length - 30)))
    expect(err.message).toBe('The package is not a valid zip file')
  })

  it('rejects an encrypted file and an unsupported compression method', async () => {
    const encrypted: RawEntry = { name: 'secret.html', data: Buffer.alloc(20, 1), flags: 1, uncompressedSize: 8 }
    expect((await rejects(await writeZip(rawZip([...goodEntries(), encrypted])))).message).toBe('The package contains an encrypted file: secret.html')
    const lzma: RawEntry = { name: 'packed.bin', data: 'xxxx', method: 14, uncompressedSize: 100 }
    expect((await rejects(await writeZip(rawZip([...goodEntries(), lzma])))).code).toBe('unsupported_compression')
  })

  it('reads a UTF-16 manifest and one in a declared single-byte encoding', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(manifest().replace('UTF-8', 'UTF-16').replace('Test course', 'Cours d’été'), 'utf16le')])
    const a = await ingestPackage({
      zipPath: await writeZip(
        rawZip([
          { name: 'imsmanifest.xml', data: utf16 },
          { name: 'index.html', data: page },
        ]),
      ),
      storage,
      prefix: `modules/${++n}/content`,
    })
    expect(a.title).toBe('Cours d’été')
    const latin1 = Buffer.from(manifest().replace('UTF-8', 'ISO-8859-1').replace('Test course', 'Café'), 'latin1')
    const b = await ingestPackage({
      zipPath: await writeZip(
        rawZip([
          { name: 'imsmanifest.xml', data: latin1 },
          { name: 'index.html', data: page },
        ]),
      ),
      storage,
      prefix: `modules/${++n}/content`,
    })
    expect(b.title).toBe('Café')
  })

  it('rejects a zip without imsmanifest.xml or cmi5.xml at its root', async () => {
    const err = await rejects(
      await writeZip(
        rawZip([
          { name: 'index.html', data: page },
          { name: 'a/b/imsmanifest.xml', data: manifest() },
        ]),
      ),
    )
    expect(err.message).toBe('The package has no imsmanifest.xml or cmi5.xml at its root (not a SCORM or cmi5 package)')
  })

  it('rejects a manifest that is not XML', async () => {
    const err = await rejects(
      await writeZip(
        rawZip([
          { name: 'imsmanifest.xml', data: '<manifest><oops></manifest>' },
          { name: 'index.html', data: page },
        ]),
      ),
    )
    expect(err.code).toBe('manifest_invalid_xml')
    expect(err.message).toMatch(/^imsmanifest\.xml is not valid XML: /)
  })

  it('rejects a package whose launch file is missing', async () => {
    const err = await rejects(
      await writeZip(
        rawZip([
          { name: 'imsmanifest.xml', data: manifest('content/start.html', 'x=1') },
          { name: 'index.html', data: page },
        ]),
      ),
    )
    expect(err.message).toBe('Launch file missing from package: content/start.html')
  })

  it('rejects a launch href that leaves the package', async () => {
    const err = await rejects(
      await writeZip(
        rawZip([
          { name: 'imsmanifest.xml', data: manifest('../index.html') },
          { name: 'index.html', data: page },
        ]),
      ),
    )
    expect(err.code).toBe('launch_file_missing')
  })

  it.each([
    ['../evil.html', '../evil.html'],
    ['a/../../evil.html', 'a/../../evil.html'],
    ['/abs/evil.html', '/abs/evil.html'],
    ['C:\\evil.html', 'C:/evil.html'],
    ['..\\..\\evil.html', '../../evil.html'],
    ['a/./b.html', 'a/./b.html'],
    ['a//b.html', 'a//b.html'],
    ['bad\u0001name.html', 'bad\u0001name.html'],
  ])('rejects the unsafe entry name %j', async (name, shown) => {
    const err = await rejects(await writeZip(rawZip([...goodEntries(), { name, data: 'x' }])))
    expect(err.code).toBe('unsafe_path')
    expect(err.message).toBe(`Unsafe path in package: ${shown}`)
  })

  it('rejects a symbolic link', async () => {
    const link: RawEntry = { name: 'passwd.html', data: '/etc/passwd', externalAttributes: (0o120777 << 16) >>> 0 }
    const err = await rejects(await writeZip(rawZip([...goodEntries(), link])))
    expect(err.message).toBe('The package contains a symbolic link: passwd.html')
  })

  it('rejects the same file name twice, and a file that is also a folder', async () => {
    expect((await rejects(await writeZip(rawZip([...goodEntries(), { name: 'index.html', data: 'other' }])))).code).toBe('duplicate_file')
    const clash = rawZip([...goodEntries(), { name: 'css', data: 'x' }, { name: 'css/site.css', data: 'y' }])
    expect((await rejects(await writeZip(clash))).message).toBe('The package contains the same file twice: css')
  })

  it('rejects more files than the limit allows, counting files and not folders', async () => {
    const entries: RawEntry[] = [...goodEntries(), { name: 'a/' }, { name: 'a/1.txt', data: '1' }, { name: 'a/2.txt', data: '2' }]
    const err = await rejects(await writeZip(rawZip(entries)), { maxEntries: 3 })
    expect(err.message).toBe('The package has too many files (4, the limit is 3)')
    const ok = await ingestPackage({ zipPath: await writeZip(rawZip(entries)), storage, prefix: `modules/${++n}/content`, limits: { maxEntries: 4 } })
    expect(ok.fileCount).toBe(4)
  })

  describe('with a 50 MB entry of zeros', () => {
    let bomb: string
    beforeAll(async () => {
      bomb = await yazlZip([...goodEntries().map((e) => ({ name: e.name, data: e.data as string })), { name: 'zeros.bin', data: Buffer.alloc(50 * 1024 * 1024) }])
    })

    it('rejects it as a zip bomb under the default limits', async () => {
      expect(DEFAULT_EXTRACT_LIMITS).toEqual({ maxEntries: 10_000, maxTotalBytes: 2 * 1024 ** 3, maxEntryBytes: 1024 ** 3, maxRatio: 200 })
      const err = await rejects(bomb)
      expect(err.message).toBe('The package looks like a zip bomb (compression ratio too high)')
    })

    it('rejects it as too large with a low total size limit', async () => {
      const err = await rejects(bomb, { maxTotalBytes: 10 * 1024 * 1024 })
      expect(err.message).toBe('The package is too large when extracted')
    })

    it('rejects it as too large with a low per-file limit', async () => {
      const err = await rejects(bomb, { maxEntryBytes: 10 * 1024 * 1024 })
      expect(err.message).toBe('The package is too large when extracted')
    })
  })

  it('does not trust the sizes in the headers: an entry that inflates beyond them is refused and what was written is removed', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a')
    const path = await yazlZip([
      ...goodEntries().map((e) => ({ name: e.name, data: e.data as string, compress: false })),
      ...Array.from({ length: 20 }, (_, i) => ({ name: `media/${i}.bin`, data: Buffer.alloc(64 * 1024, i), compress: false })),
      { name: 'zz-liar.txt', data: big },
    ])
    // Claim 1,000 bytes for the liar in both its local header and its central directory record.
    const bytes = await readFile(path)
    const name = Buffer.from('zz-liar.txt')
    for (let at = bytes.indexOf(name); at !== -1; at = bytes.indexOf(name, at + 1)) {
      if (bytes.readUInt32LE(at - 46) === 0x02014b50) bytes.writeUInt32LE(1000, at - 46 + 24)
      else if (bytes.readUInt32LE(at - 30) === 0x04034b50) bytes.writeUInt32LE(1000, at - 30 + 22)
    }
    const err = await rejects(await writeZip(bytes))
    expect(err.message).toBe('The package is not a valid zip file')
  })

  it('removes what it wrote and passes on a storage failure', async () => {
    const failing: Storage = {
      ...storage,
      async put(key, source) {
        if (key.endsWith('/index.html')) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' })
        return storage.put(key, source)
      },
    }
    const many = rawZip([...goodEntries(), ...Array.from({ length: 30 }, (_, i) => ({ name: `f/${i}.txt`, data: `file ${i}` }))])
    const prefix = `modules/${++n}/content`
    await expect(ingestPackage({ zipPath: await writeZip(many), storage: failing, prefix })).rejects.toThrow('disk full')
    expect(await filesUnder(prefix)).toEqual([])
  })

  it('extracts a couple of hundred stored and deflated files', async () => {
    const files = Array.from({ length: 200 }, (_, i) => ({ name: `assets/${i % 10}/f${i}.bin`, data: Buffer.alloc(256 * 1024, i), compress: i % 2 === 0 }))
    const zipPath = await yazlZip([...goodEntries().map((e) => ({ name: e.name, data: e.data as string })), ...files])
    const info = await ingestPackage({ zipPath, storage, prefix: `modules/${++n}/content` })
    expect(info.fileCount).toBe(202)
    expect(info.totalBytes).toBe(200 * 256 * 1024 + manifest().length + page.length)
  })

  it('stores every byte of entries many read buffers long, stored and deflated, extracted side by side', async () => {
    // Distinct bytes everywhere, so a buffer reused too early would show as a wrong byte.
    const text = (i: number) => Buffer.from(Array.from({ length: 30_000 }, (_, j) => `line ${i}.${j}\n`).join(''))
    const files = Array.from({ length: 12 }, (_, i) => ({
      name: `media/f${i}.bin`,
      data: i % 3 === 0 ? text(i) : randomBytes(300 * 1024 + i),
      compress: i % 2 === 0,
    }))
    const zipPath = await yazlZip([...goodEntries().map((e) => ({ name: e.name, data: e.data as string })), ...files])
    const prefix = `modules/${++n}/content`
    await ingestPackage({ zipPath, storage, prefix })
    for (const f of files) expect((await readFile(join(storageRoot, prefix, f.name))).equals(f.data), f.name).toBe(true)
  })

  it('rejects deflated data that is corrupt or cut short, and removes what it wrote', async () => {
    const text = Buffer.from('SCORM page text '.repeat(20_000))
    const deflated = deflateRawSync(text)
    const corrupt = Buffer.from(deflated)
    corrupt.fill(0xff, 10, 200)
    for (const data of [corrupt, deflated.subarray(0, deflated.length >> 1)]) {
      const err = await rejects(await writeZip(rawZip([...goodEntries(), { name: 'page.txt', data, method: 8, uncompressedSize: text.length }])))
      expect(err.message).toBe('The package is not a valid zip file')
    }
  })
})

describe('ingestPackage with an AICC course', () => {
  const files = [
    { name: 'golf.crs', data: aiccCourse.crs },
    { name: 'golf.au', data: aiccCourse.au },
    { name: 'golf.des', data: aiccCourse.des },
    { name: 'golf.cst', data: aiccCourse.cst },
    { name: 'lesson1/index.html', data: page },
    { name: 'quiz/start.html', data: page },
  ]

  it('accepts it, with one item per AU', async () => {
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath: await yazlZip(files), storage, prefix })
    expect(info).toMatchObject({ version: 'AICC', edition: 'AICC', title: 'Golf, the Basics', scoCount: 2, fileCount: 6 })
    expect([...walkItems(info.items)].filter((i) => i.href).map((i) => i.href)).toEqual(['lesson1/index.html?lang=en', 'quiz/start.html?attempt=1'])
    expect(await filesUnder(prefix)).toEqual(['golf.au', 'golf.crs', 'golf.cst', 'golf.des', 'lesson1/index.html', 'quiz/start.html'])
  })

  it('accepts it inside one top folder', async () => {
    const info = await ingestPackage({ zipPath: await yazlZip(files.map((f) => ({ ...f, name: `course/${f.name}` }))), storage, prefix: `modules/${++n}/content` })
    expect(info.scoCount).toBe(2)
  })

  it('rejects it when an AU launch file is missing', async () => {
    const err = await rejects(await yazlZip(files.filter((f) => f.name !== 'quiz/start.html')))
    expect(err.message).toBe('Launch file missing from package: quiz/start.html')
  })
})

describe('ingestPackage with a cmi5 course', () => {
  const files = [
    { name: 'cmi5.xml', data: cmi5Xml },
    { name: 'lesson/index.html', data: page },
    { name: 'summary.html', data: page },
  ]

  it('accepts a zip with cmi5.xml at its root: the course structure, its block/AU tree, every file extracted', async () => {
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath: await yazlZip(files), storage, prefix })
    expect(info).toMatchObject({ version: 'cmi5', edition: null, title: 'Rocks, a cmi5 course', scoCount: 3, fileCount: 3 })
    expect(info.cmi5?.id).toBe('https://example.com/cmi5/course')
    expect(cmi5Aus(info.cmi5!.children).map((a) => [a.id, a.moveOn, a.launchMethod, a.masteryScore])).toEqual([
      ['https://example.com/cmi5/au/1', 'Completed', 'AnyWindow', null],
      ['https://example.com/cmi5/au/2', 'Passed', 'OwnWindow', 0.8],
      ['https://example.com/cmi5/au/3', 'NotApplicable', 'AnyWindow', null],
    ])
    expect(info.items.map((i) => [i.identifier, i.href, i.children.map((c) => [c.identifier, c.href, c.mastery_score])])).toEqual([
      [
        'https://example.com/cmi5/block',
        null,
        [
          ['https://example.com/cmi5/au/1', 'lesson/index.html?page=1', null],
          ['https://example.com/cmi5/au/2', 'https://aus.example.com/quiz.html', 0.8],
        ],
      ],
      ['https://example.com/cmi5/au/3', 'summary.html', []],
    ])
    expect(await filesUnder(prefix)).toEqual(['cmi5.xml', 'lesson/index.html', 'summary.html'])
  })

  it('accepts cmi5.xml inside the single top folder, and stores the package without it', async () => {
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath: await yazlZip(files.map((f) => ({ ...f, name: `rocks/${f.name}` }))), storage, prefix })
    expect(info).toMatchObject({ version: 'cmi5', scoCount: 3 })
    expect(await filesUnder(prefix)).toEqual(['cmi5.xml', 'lesson/index.html', 'summary.html'])
  })

  it('reads a package with both imsmanifest.xml and cmi5.xml as SCORM', async () => {
    const info = await ingestPackage({
      zipPath: await yazlZip([...files, { name: 'imsmanifest.xml', data: manifest() }, { name: 'index.html', data: page }]),
      storage,
      prefix: `modules/${++n}/content`,
    })
    expect(info.version).toBe('1.2')
    expect(info.cmi5).toBeUndefined()
  })

  it('rejects an AU whose relative url is not in the package, and writes nothing', async () => {
    const err = await rejects(await yazlZip(files.filter((f) => f.name !== 'lesson/index.html')))
    expect(err.message).toBe(CMI5_MESSAGES.missingFile('https://example.com/cmi5/au/1', 'lesson/index.html?page=1'))
  })

  it('rejects a cmi5.xml that the parser refuses, with its message', async () => {
    const err = await rejects(await yazlZip([{ name: 'cmi5.xml', data: cmi5Xml.replace('https://example.com/cmi5/au/3', 'https://example.com/cmi5/au/1') }, ...files.slice(1)]))
    expect(err.message).toBe(CMI5_MESSAGES.duplicateId('https://example.com/cmi5/au/1'))
    expect((await rejects(await yazlZip([{ name: 'cmi5.xml', data: '<courseStructure><course>' }]))).message).toBe(CMI5_MESSAGES.notXml)
  })

  it(`takes ${MAX_CMI5_AUS} AUs, each with its own file`, async () => {
    const aus = Array.from({ length: MAX_CMI5_AUS }, (_, i) => ({ name: `au${i}/index.html`, data: page }))
    const xml = cmi5Structure({ aus: MAX_CMI5_AUS, perBlock: 25, url: (i) => `au${i}/index.html?start=1` })
    const prefix = `modules/${++n}/content`
    const started = performance.now()
    const info = await ingestPackage({ zipPath: await yazlZip([{ name: 'cmi5.xml', data: xml }, ...aus]), storage, prefix })
    expect(info).toMatchObject({ version: 'cmi5', scoCount: MAX_CMI5_AUS, fileCount: MAX_CMI5_AUS + 1 })
    expect([...walkItems(info.items)].filter((i) => i.href)).toHaveLength(MAX_CMI5_AUS)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})

describe('ingestPackage with a cmi5.xml alone', () => {
  const absolute = cmi5Xml.replace('lesson/index.html?page=1', 'https://aus.example.com/lesson.html?page=1').replace('summary.html', 'http://aus.example.com/summary.html')
  const lone = async (text: string | Buffer) => {
    const path = join(dir, `lone${++n}.xml`)
    await writeFile(path, text)
    return path
  }

  it('accepts one whose AUs all have absolute http(s) urls, and extracts nothing', async () => {
    const prefix = `modules/${++n}/content`
    const info = await ingestPackage({ zipPath: await lone(absolute), storage, prefix })
    expect(info).toMatchObject({ version: 'cmi5', edition: null, title: 'Rocks, a cmi5 course', scoCount: 3, fileCount: 0, totalBytes: 0 })
    expect([...walkItems(info.items)].filter((i) => i.href).map((i) => i.href)).toEqual([
      'https://aus.example.com/lesson.html?page=1',
      'https://aus.example.com/quiz.html',
      'http://aus.example.com/summary.html',
    ])
    expect(info.cmi5?.children).toHaveLength(2)
    expect(await filesUnder(prefix)).toEqual([])
  })

  it('reads one with a byte order mark, in UTF-16', async () => {
    const info = await ingestPackage({
      zipPath: await lone(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(absolute, 'utf16le')])),
      storage,
      prefix: `modules/${++n}/content`,
    })
    expect(info.scoCount).toBe(3)
  })

  it('refuses one with a relative url: it needs its package', async () => {
    const err = await rejects(await lone(cmi5Xml))
    expect(err.message).toBe(CMI5_MESSAGES.relativeUrlAlone('https://example.com/cmi5/au/1'))
  })

  it('refuses XML that is no cmi5 course structure', async () => {
    expect((await rejects(await lone(manifest()))).message).toBe(CMI5_MESSAGES.noCourse)
    expect((await rejects(await lone('<courseStructure><course id="a:b">'))).message).toBe(CMI5_MESSAGES.notXml)
  })
})
