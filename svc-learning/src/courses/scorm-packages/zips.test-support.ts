/**
 * Zip helpers for the package tests: the real fixtures, reading one entry, and a raw zip writer
 * for entries yazl refuses to write (unsafe names, symlinks, duplicates).
 */
import { fileURLToPath } from 'node:url'
import { crc32 } from 'node:zlib'
import yauzl from 'yauzl'

/** Absolute path of a fixture in shared/fixtures/scorm beside the repository. */
export const fixturePath = (name: string) => fileURLToPath(new URL(`../../../../../shared/fixtures/scorm/${name}`, import.meta.url))

/** The bytes of one entry of a zip file. */
export async function readZipEntry(zipPath: string, name: string): Promise<Buffer> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false })
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== name) continue
      const chunks: Buffer[] = []
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks)
    }
    throw new Error(`${name} not in ${zipPath}`)
  } finally {
    zip.close()
  }
}

export const readFixtureManifest = async (name: string) => (await readZipEntry(fixturePath(name), 'imsmanifest.xml')).toString('utf8')

export interface RawEntry {
  /** Written byte for byte (UTF-8) as the entry's name. */
  name: string
  data?: Buffer | string
  /** Unix mode in the high 16 bits, as zip tools write it (e.g. `(0o120777 << 16) >>> 0` for a symlink). */
  externalAttributes?: number
  /** Compression method written in the headers (the data is always written as given). */
  method?: number
  /** General purpose flags besides UTF-8 (bit 0: encrypted). */
  flags?: number
  /** Uncompressed size written in the headers, when it should differ from the data's length. */
  uncompressedSize?: number
}

/** A zip of entries with exactly the given names, attributes and header fields (data stored as given). */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8')
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0))
    const crc = crc32(data)
    const flags = 0x800 | (e.flags ?? 0)
    const method = e.method ?? 0
    const size = e.uncompressedSize ?? data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE((3 << 8) | 20, 4) // made by Unix
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(e.externalAttributes ?? (0o100644 << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, data)
    centrals.push(central, name)
    offset += local.length + name.length + data.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

/** A two-lesson AICC course as authoring tools write it (CRLF, quoted fields, mixed-case headers). */
export const aiccCourse = {
  crs: [
    '[Course]',
    'Course_Creator=Training Team',
    'Course_ID=GOLF101',
    'Course_System=HTML',
    'Course_Title=Golf, the Basics',
    'Level=1',
    'Max_Fields_CST=3',
    'Total_AUs=2',
    'Total_Blocks=1',
    'Version=2.0',
    '[Course_Behavior]',
    'Max_Normal=99',
    '[Course_Description]',
    'An introduction to golf.',
  ].join('\r\n'),
  au: [
    '"System_ID","Type","Command_Line","File_Name","Core_Vendor","Web_Launch","AU_Password","Max_Score","Mastery_Score","Max_Time_Allowed","Time_Limit_Action","System_Vendor"',
    '"A1","lesson","","lesson1/index.html","","lang=en","","100","80","00:30:00","exit,message",""',
    '"A2","quiz","","quiz\\start.html","mode=""final""","?attempt=1","","100","","","",""',
  ].join('\r\n'),
  des: [
    '"System_ID","Developer_ID","Title","Description"',
    '"B1","blk","Part one","The first part"',
    '"A1","L1","Rules, etiquette and scoring","The first lesson"',
    '"A2","Q1","Final quiz","Questions"',
  ].join('\r\n'),
  cst: ['"block","member","member"', '"root","B1","A2"', '"B1","A1"'].join('\r\n'),
}

/** A cmi5 course structure: a block with a local AU (query string) and one hosted elsewhere, then a local AU. */
export const cmi5Xml = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.com/cmi5/course">
    <title><langstring lang="en-US">Rocks, a cmi5 course</langstring></title>
    <description><langstring lang="en-US">Three units</langstring></description>
  </course>
  <block id="https://example.com/cmi5/block">
    <title><langstring lang="en-US">Part one</langstring></title>
    <description><langstring lang="en-US">Two units</langstring></description>
    <au id="https://example.com/cmi5/au/1" moveOn="Completed">
      <title><langstring lang="en-US">Lesson</langstring></title>
      <description><langstring lang="en-US">Read</langstring></description>
      <url>lesson/index.html?page=1</url>
    </au>
    <au id="https://example.com/cmi5/au/2" moveOn="Passed" masteryScore="0.8" launchMethod="OwnWindow">
      <title><langstring lang="en-US">Hosted quiz</langstring></title>
      <description><langstring lang="en-US">Answer</langstring></description>
      <url>https://aus.example.com/quiz.html</url>
    </au>
  </block>
  <au id="https://example.com/cmi5/au/3">
    <title><langstring lang="en-US">Summary</langstring></title>
    <description><langstring lang="en-US">Done</langstring></description>
    <url>summary.html</url>
  </au>
</courseStructure>`
