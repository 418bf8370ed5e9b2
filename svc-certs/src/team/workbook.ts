import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import type ExcelJS from 'exceljs'
import { Zip, ZipDeflate, strToU8 } from 'fflate'
import type { Logger } from '@portal/server-kit'

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
export const USD_FORMAT = '"$"#,##0.00'

export type WorkbookWriter = ExcelJS.stream.xlsx.WorkbookWriter
export type Column = { header: string; key: string; width: number; numFmt?: string }

/** A downloadable workbook: its name and its bytes as they are written. */
export interface WorkbookDownload {
  filename: string
  body: ReadableStream<Uint8Array>
}

/**
 * A worksheet written row by row (exceljs' streaming writer: each committed row leaves memory),
 * its header row bold and frozen.
 */
export function addSheet(wb: WorkbookWriter, name: string, columns: Column[], pace: () => Promise<void>) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] })
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : {} }))
  ws.getRow(1).font = { bold: true }
  let rows = 0
  return {
    /** Adds and commits a row; every 200 rows waits until the download has taken what was written. */
    async add(values: Record<string, unknown>) {
      ws.addRow(values).commit()
      if (++rows % 200 === 0) await pace()
    },
    done: () => ws.commit(),
  }
}

/**
 * Streams an .xlsx as `fill` writes it (nothing is held whole in memory). A failure half-way
 * aborts the download (the client sees a broken transfer, never a truncated file that opens) and
 * is logged.
 */
export function streamWorkbook(
  logger: Logger,
  what: string,
  fill: (wb: WorkbookWriter, pace: () => Promise<void>) => Promise<void>,
): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  // Backpressure: the writer does not wait for the zip or the client, so the filler does.
  const pace = async () => {
    await new Promise((resolve) => setImmediate(resolve))
    if (out.writableNeedDrain) await once(out, 'drain')
  }
  void (async () => {
    // exceljs (~30 MB once loaded) is read on the first workbook, not at the service's start.
    const { default: excel } = await import('exceljs')
    const wb = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
    await fill(wb, pace)
    await wb.commit()
  })().catch((err: unknown) => {
    logger.error('workbook not written', { what, err: err as Error })
    out.destroy(err as Error)
  })
  return Readable.toWeb(out) as ReadableStream<Uint8Array>
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
/** A1-style column letters of a 0-based index. */
const columnName = (i: number): string => (i < 26 ? '' : columnName(Math.floor(i / 26) - 1)) + String.fromCharCode(65 + (i % 26))
/** A cell as exceljs writes it without shared strings: numbers as values, text inline (`t="str"`), empty text left out. */
function cellXml(ref: string, value: unknown): string {
  if (value === '' || value === null || value === undefined) return ''
  if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`
  return `<c r="${ref}" t="str"><v>${escapeXml(String(value))}</v></c>`
}

/** A plain worksheet: its header row bold and frozen, then row after row. */
export interface PlainSheet {
  add(values: Record<string, unknown>): Promise<void>
  done(): Promise<void>
}

/**
 * Streams a plain .xlsx (text and numbers, bold frozen header, column widths) as `fill` writes
 * it, each sheet's XML written by hand into a streaming zip: for exports of tens of thousands of
 * rows, where exceljs' writer (a cell object per value, ~57 MB of garbage over 80,000 rows) would
 * hold the service's memory. Failures abort the download as `streamWorkbook`'s do.
 */
export function streamPlainWorkbook(logger: Logger, what: string, fill: (addSheet: (name: string, columns: Column[]) => PlainSheet) => Promise<void>): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  const zip = new Zip((err, chunk, final) => {
    if (err) return void out.destroy(err)
    out.write(chunk)
    if (final) out.end()
  })
  const names: string[] = []
  const addSheet = (name: string, columns: Column[]): PlainSheet => {
    names.push(name)
    const file = new ZipDeflate(`xl/worksheets/sheet${names.length}.xml`, { level: 6 })
    zip.add(file)
    let pending = ''
    let row = 0
    const flush = async (final = false) => {
      file.push(strToU8(pending), final)
      pending = ''
      await new Promise((resolve) => setImmediate(resolve))
      if (out.writableNeedDrain) await once(out, 'drain')
    }
    const add = async (values: Record<string, unknown>) => {
      const r = ++row
      pending += `<row r="${r}">${columns.map((c, i) => cellXml(`${columnName(i)}${r}`, values[c.key])).join('')}</row>`
      if (pending.length >= 64 * 1024) await flush()
    }
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('')
    pending =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
      `<row r="1">${columns.map((c, i) => `<c r="${columnName(i)}1" s="1" t="str"><v>${escapeXml(c.header)}</v></c>`).join('')}</row>`
    row = 1
    return {
      add,
      async done() {
        pending += '</sheetData></worksheet>'
        await flush(true)
      },
    }
  }
  const part = (path: string, xml: string) => {
    const file = new ZipDeflate(path, { level: 6 })
    zip.add(file)
    file.push(strToU8(XML_HEAD + xml), true)
  }
  void (async () => {
    part('_rels/.rels', `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
    part(
      'xl/styles.xml',
      `<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
        `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
        `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    )
    await fill(addSheet)
    part(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names.map((n, i) => `<sheet name="${escapeXml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    )
    part(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${names.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    )
    // Last: the parts list names the sheets `fill` added (readers find parts by the zip's directory).
    part(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    )
    zip.end()
  })().catch((err: unknown) => {
    logger.error('workbook not written', { what, err: err as Error })
    out.destroy(err as Error)
  })
  return Readable.toWeb(out) as ReadableStream<Uint8Array>
}
