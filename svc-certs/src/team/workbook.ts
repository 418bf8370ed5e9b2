import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
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

/** What the main thread tells `workbook.worker.ts`. */
export type PlainWorkbookMessage =
  | { type: 'sheet'; name: string; columns: Column[] }
  | { type: 'rows'; rows: unknown[][] }
  | { type: 'sheetDone' }
  | { type: 'end' }

/** A plain worksheet: its header row bold and frozen, then row after row. */
export interface PlainSheet {
  add(values: Record<string, unknown>): Promise<void>
  done(): Promise<void>
}

/** Rows sent to the worker at a time. */
const PLAIN_BATCH = 500

/**
 * Streams a plain .xlsx (text and numbers as exceljs writes them without shared strings, bold
 * frozen header, column widths) as `fill` adds rows: for exports of tens of thousands of rows.
 * The sheets' XML and the zip are written in a worker thread with a small young generation
 * (`workbook.worker.ts`); written here, a long export's garbage grew the service's young
 * generation to its 64 MB ceiling, which V8 keeps. `fill` waits on the worker and the download
 * every 500 rows. Failures abort the download as `streamWorkbook`'s do.
 */
export function streamPlainWorkbook(logger: Logger, what: string, fill: (addSheet: (name: string, columns: Column[]) => PlainSheet) => Promise<void>): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  const worker = new Worker(new URL('./workbook.worker.ts', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 } })
  let waiting: { resolve: () => void; reject: (err: Error) => void } | undefined
  let failed: Error | undefined
  const fail = (err: Error) => {
    failed ??= err
    waiting?.reject(err)
  }
  worker.on('message', (m: { chunk?: Uint8Array; final?: boolean; taken?: true }) => {
    if (m.chunk) {
      out.write(m.chunk)
      if (m.final) out.end()
    } else waiting?.resolve()
  })
  worker.on('error', fail)
  worker.on('exit', (code) => code === 0 || fail(new Error(`workbook worker exited ${code}`)))
  /** Sends a message and waits until the worker posted its bytes and the download took them. */
  const send = async (m: PlainWorkbookMessage) => {
    if (failed) throw failed
    const taken = new Promise<void>((resolve, reject) => (waiting = { resolve, reject }))
    worker.postMessage(m)
    await taken
    if (out.writableNeedDrain) await once(out, 'drain')
  }
  const addSheet = (name: string, columns: Column[]): PlainSheet => {
    let rows: unknown[][] = []
    const sent = send({ type: 'sheet', name, columns })
    const flush = async () => {
      await sent
      if (rows.length) await send({ type: 'rows', rows })
      rows = []
    }
    return {
      async add(values) {
        rows.push(columns.map((c) => values[c.key]))
        if (rows.length >= PLAIN_BATCH) await flush()
      },
      async done() {
        await flush()
        await send({ type: 'sheetDone' })
      },
    }
  }
  void (async () => {
    await fill(addSheet)
    await send({ type: 'end' })
    await worker.terminate()
  })().catch((err: unknown) => {
    logger.error('workbook not written', { what, err: err as Error })
    void worker.terminate()
    out.destroy(err as Error)
  })
  return Readable.toWeb(out) as ReadableStream<Uint8Array>
}
