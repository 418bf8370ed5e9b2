import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import type ExcelJS from 'exceljs'
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
  opts: { styles?: boolean } = {},
): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  // Backpressure: the writer does not wait for the zip or the client, so the filler does.
  const pace = async () => {
    await new Promise((resolve) => setImmediate(resolve))
    if (out.writableNeedDrain) await once(out, 'drain')
  }
  void (async () => {
    // exceljs is read with the first workbook, not at start: the idle service is ~10 MB smaller.
    const { default: excel } = await import('exceljs')
    // Styles (bold headers, money formats) cost time per cell: large exports go without.
    const wb = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: opts.styles ?? true, useSharedStrings: false })
    await fill(wb, pace)
    await wb.commit()
  })().catch((err: unknown) => {
    logger.error('workbook not written', { what, err: err as Error })
    out.destroy(err as Error)
  })
  return Readable.toWeb(out) as ReadableStream<Uint8Array>
}
