import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import { Zip, ZipDeflate, strToU8 } from 'fflate'
import type { Logger } from './logger.ts'

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
export const USD_FORMAT = '"$"#,##0.00'

export type Column = { header: string; key: string; width: number; numFmt?: string }

/** A downloadable workbook: its name and its bytes as they are written. */
export interface WorkbookDownload {
  filename: string
  body: ReadableStream<Uint8Array>
}

/** A worksheet being written: rows go out as they are added. */
export interface Sheet {
  /** Adds a row (values by column key; empty text and null leave the cell out). */
  add(values: Record<string, unknown>): Promise<void>
  /** Closes the sheet; the next one may start. */
  done(): Promise<void>
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'
/** Sheet XML is handed to the zip in pieces of about this many characters. */
const PIECE = 64 * 1024
/**
 * Deflate level of the sheets: 3 writes the 10,000-member export about 20% faster than 6 for about
 * 9% more bytes (4.3 against 4.0 MB).
 */
const SHEET_LEVEL = 3
/** Number formats get style ids from here on (0 plain, 1 the bold header). */
const FIRST_FORMAT_STYLE = 2
/** Custom number formats are numbered from 164 (below are Excel's built-in ones). */
const FIRST_CUSTOM_FORMAT = 164

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }
const charRange = (from: number, to: number) => `${String.fromCharCode(from)}-${String.fromCharCode(to)}`
/** Characters XML 1.0 does not allow: the control codes but tab, LF and CR, and U+FFFE and U+FFFF (built from code points, as they are meant). */
const NOT_XML = new RegExp(`[${charRange(0x00, 0x08)}${charRange(0x0b, 0x0c)}${charRange(0x0e, 0x1f)}${charRange(0xfffe, 0xffff)}]`, 'g')
/** Text as XML: markup escaped, characters XML 1.0 does not allow (control codes) left out. */
export const escapeXml = (s: string) => s.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]!)
/** A1-style column letters of a 0-based index. */
export const columnName = (i: number): string => (i < 26 ? '' : columnName(Math.floor(i / 26) - 1)) + String.fromCharCode(65 + (i % 26))

function cellXml(ref: string, value: unknown, style: number): string {
  if (value === '' || value === null || value === undefined) return ''
  const s = style ? ` s="${style}"` : ''
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`
  const text = String(value)
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : ''
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${escapeXml(text)}</t></is></c>`
}

/**
 * Streams an .xlsx as `fill` writes it: each sheet's XML is written as its rows come and deflated
 * into fflate's streaming zip, so a 10,000-member export never holds more than a piece of sheet
 * and what the download has not taken yet (decision 0037: exceljs' writer, a cell object per value,
 * kept the service far above its memory goal). Sheets have a bold, frozen header row, column
 * widths and number formats. A failure half-way aborts the download (the client sees a broken
 * transfer, never a truncated file that opens) and is logged.
 */
export function streamWorkbook(logger: Logger, what: string, fill: (addSheet: (name: string, columns: Column[]) => Sheet) => Promise<void>): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  const zip = new Zip((err, chunk, final) => {
    if (err) return void out.destroy(err)
    out.write(chunk)
    if (final) out.end()
  })
  const formats: string[] = []
  const styleOf = (numFmt: string | undefined) => {
    if (!numFmt) return 0
    if (!formats.includes(numFmt)) formats.push(numFmt)
    return FIRST_FORMAT_STYLE + formats.indexOf(numFmt)
  }
  const part = (path: string, xml: string) => {
    const file = new ZipDeflate(path, { level: 6 })
    zip.add(file)
    file.push(strToU8(XML_HEAD + xml), true)
  }
  const names: string[] = []
  let open = false
  const addSheet = (name: string, columns: Column[]): Sheet => {
    if (open) throw new Error('a sheet is still being written')
    open = true
    names.push(name)
    const file = new ZipDeflate(`xl/worksheets/sheet${names.length}.xml`, { level: SHEET_LEVEL })
    zip.add(file)
    const styles = columns.map((c) => styleOf(c.numFmt))
    const refs = columns.map((_, i) => columnName(i))
    let row = 1
    let pending =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('')}</cols>` +
      `<sheetData><row r="1">${columns.map((c, i) => cellXml(`${refs[i]}1`, c.header, 1)).join('')}</row>`
    // Backpressure: a piece goes to the zip, then the filler waits until the download has taken it.
    const flush = async (final: boolean) => {
      file.push(strToU8(pending), final)
      pending = ''
      await new Promise((resolve) => setImmediate(resolve))
      if (out.writableNeedDrain) await once(out, 'drain')
    }
    return {
      async add(values) {
        const r = ++row
        pending += `<row r="${r}">${columns.map((c, i) => cellXml(`${refs[i]}${r}`, values[c.key], styles[i]!)).join('')}</row>`
        if (pending.length >= PIECE) await flush(false)
      },
      async done() {
        pending += '</sheetData></worksheet>'
        await flush(true)
        open = false
      },
    }
  }
  void (async () => {
    await fill(addSheet)
    if (open) throw new Error('a sheet was not closed')
    part('_rels/.rels', `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
    part(
      'xl/styles.xml',
      `<styleSheet xmlns="${MAIN_NS}">` +
        (formats.length
          ? `<numFmts count="${formats.length}">${formats.map((f, i) => `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT + i}" formatCode="${escapeXml(f)}"/>`).join('')}</numFmts>`
          : '') +
        `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
        `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
        `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
        `<cellXfs count="${FIRST_FORMAT_STYLE + formats.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
        formats.map((_, i) => `<xf numFmtId="${FIRST_CUSTOM_FORMAT + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('') +
        `</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    )
    part(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names.map((n, i) => `<sheet name="${escapeXml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    )
    part(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG_REL_NS}">` +
        names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${names.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    )
    // Last: the list of parts names every sheet `fill` added (readers find parts by the zip's directory).
    part(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        names
          .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
          .join('') +
        '</Types>',
    )
    zip.end()
  })().catch((err: unknown) => {
    logger.error('workbook not written', { what, err: err as Error })
    out.destroy(err as Error)
  })
  // The download side queues by bytes: by default it counts chunks, and held much of the file
  // whenever the client read more slowly than the zip wrote.
  return Readable.toWeb(out, { strategy: new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }) }) as ReadableStream<Uint8Array>
}
