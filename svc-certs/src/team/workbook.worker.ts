/**
 * The worker thread of `streamPlainWorkbook`: writes a plain .xlsx's parts by hand (sheet XML as
 * rows arrive) into fflate's streaming zip and posts the zip's bytes back. It runs with a small
 * young generation (the main thread's grows to 64 MB under a long export's garbage and stays).
 */
import { parentPort } from 'node:worker_threads'
import { Zip, ZipDeflate, strToU8 } from 'fflate'
import type { PlainWorkbookMessage } from './workbook.ts'

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

const zip = new Zip((err, chunk, final) => {
  if (err) throw err
  const bytes = chunk.slice()
  parentPort!.postMessage({ chunk: bytes, final }, [bytes.buffer])
})
const part = (path: string, xml: string) => {
  const file = new ZipDeflate(path, { level: 6 })
  zip.add(file)
  file.push(strToU8(XML_HEAD + xml), true)
}
const names: string[] = []
let sheet: { file: ZipDeflate; columns: number; row: number } | undefined

part('_rels/.rels', `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
part(
  'xl/styles.xml',
  `<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
    `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
)

parentPort!.on('message', (m: PlainWorkbookMessage) => {
  if (m.type === 'sheet') {
    names.push(m.name)
    const file = new ZipDeflate(`xl/worksheets/sheet${names.length}.xml`, { level: 6 })
    zip.add(file)
    const cols = m.columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('')
    file.push(
      strToU8(
        `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
          `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
          `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
          `<row r="1">${m.columns.map((c, i) => `<c r="${columnName(i)}1" s="1" t="str"><v>${escapeXml(c.header)}</v></c>`).join('')}</row>`,
      ),
    )
    sheet = { file, columns: m.columns.length, row: 1 }
  } else if (m.type === 'rows') {
    const s = sheet!
    let xml = ''
    for (const values of m.rows) {
      const r = ++s.row
      xml += `<row r="${r}">${values.map((v, i) => cellXml(`${columnName(i)}${r}`, v)).join('')}</row>`
    }
    s.file.push(strToU8(xml))
  } else if (m.type === 'sheetDone') {
    sheet!.file.push(strToU8('</sheetData></worksheet>'), true)
    sheet = undefined
  } else {
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
    // Last: the parts list names the sheets added (readers find parts by the zip's directory).
    part(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    )
    zip.end()
  }
  // Every message answered once its bytes are posted: the main thread paces on these.
  parentPort!.postMessage({ taken: true })
})
