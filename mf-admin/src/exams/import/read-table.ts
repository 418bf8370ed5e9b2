/** A question file as a table of cells. The parsers load only when a file is read (kept off the admin's first screen). */
export type Cells = unknown[][]

/** The file kinds the import reads, by extension. */
export const IMPORT_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

export class UnreadableFileError extends Error {}

export async function readTable(file: File): Promise<Cells> {
  const name = file.name.toLowerCase()
  if (name.endsWith('.xlsx')) {
    // read-excel-file: reads .xlsx only (no writer, no legacy .xls), maintained, a fraction of SheetJS's size.
    const { readSheet } = await import(/* webpackChunkName: "xlsx-reader" */ 'read-excel-file/browser')
    try {
      return (await readSheet(file)) as Cells
    } catch {
      throw new UnreadableFileError(`${file.name} could not be read as an Excel workbook (.xlsx).`)
    }
  }
  if (name.endsWith('.csv') || file.type === 'text/csv') {
    const { default: Papa } = await import(/* webpackChunkName: "csv-reader" */ 'papaparse')
    const text = await file.text()
    const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' })
    if (parsed.data.length === 0 && parsed.errors.length > 0) throw new UnreadableFileError(`${file.name} could not be read as CSV.`)
    return parsed.data
  }
  throw new UnreadableFileError(`${file.name} is neither a CSV (.csv) nor an Excel workbook (.xlsx).`)
}
