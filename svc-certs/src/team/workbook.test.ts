import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { USD_FORMAT, columnName, createLogger, streamWorkbook } from '@portal/server-kit'

const logger = createLogger('certs-test', 'silent')
const bytesOf = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer())
const read = async (body: ReadableStream<Uint8Array>) => {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load((await bytesOf(body)).buffer as ArrayBuffer)
  return wb
}

describe('streamed workbook', () => {
  it('reads back in Excel’s terms: sheets in order, text as written, numbers as numbers, bold frozen header, widths and formats', async () => {
    const wb = await read(
      streamWorkbook(logger, 'test', async (addSheet) => {
        const people = addSheet('People & <Co>', [
          { header: 'Name', key: 'name', width: 30 },
          { header: 'Pay', key: 'pay', width: 12, numFmt: USD_FORMAT },
          { header: 'Ratio', key: 'ratio', width: 8, numFmt: '0.00' },
        ])
        await people.add({ name: 'Ada "A" <Lovelace> & Co', pay: 1234.5, ratio: 2 })
        await people.add({ name: '  spaced  ', pay: '', ratio: null })
        await people.add({ name: 'bell\u0007 gone', pay: 0, ratio: 1.25 })
        await people.done()
        const empty = addSheet('Empty', [{ header: 'Only', key: 'only', width: 5 }])
        await empty.done()
      }),
    )
    expect(wb.worksheets.map((w) => w.name)).toEqual(['People & <Co>', 'Empty'])
    const ws = wb.getWorksheet('People & <Co>')!
    expect(ws.getRow(1).values).toEqual([undefined, 'Name', 'Pay', 'Ratio'])
    expect(ws.getCell('A1').font?.bold).toBe(true)
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    expect(ws.getColumn(1).width).toBe(30)
    expect(ws.getCell('A2').value).toBe('Ada "A" <Lovelace> & Co')
    expect(ws.getCell('B2').value).toBe(1234.5)
    expect(ws.getCell('B2').numFmt).toBe(USD_FORMAT)
    expect(ws.getCell('C2').numFmt).toBe('0.00')
    expect(ws.getCell('A3').value).toBe('  spaced  ')
    expect(ws.getCell('B3').value).toBeNull()
    expect(ws.getCell('A4').value).toBe('bell gone')
    expect(ws.getCell('B4').value).toBe(0)
    expect(wb.getWorksheet('Empty')!.rowCount).toBe(1)
  })

  it('writes ten thousand rows in pieces the download takes as they come', async () => {
    let chunks = 0
    const body = streamWorkbook(logger, 'test', async (addSheet) => {
      const s = addSheet('Rows', [
        { header: 'N', key: 'n', width: 8 },
        { header: 'Text', key: 't', width: 20 },
      ])
      for (let n = 1; n <= 10_000; n++) await s.add({ n, t: `row ${n}` })
      await s.done()
    })
    const reader = body.getReader()
    let size = 0
    const parts: Uint8Array[] = []
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks++
      parts.push(r.value)
      size += r.value.length
    }
    expect(chunks).toBeGreaterThan(1)
    const wb = new ExcelJS.Workbook()
    const whole = new Uint8Array(size)
    parts.reduce((at, p) => (whole.set(p, at), at + p.length), 0)
    await wb.xlsx.load(whole.buffer)
    const ws = wb.getWorksheet('Rows')!
    expect(ws.rowCount).toBe(10_001)
    expect(ws.getRow(10_001).values).toEqual([undefined, 10_000, 'row 10000'])
  })

  it('aborts the download when the filler fails half-way, or leaves a sheet open', async () => {
    const failing = streamWorkbook(logger, 'test', async (addSheet) => {
      const s = addSheet('Half', [{ header: 'N', key: 'n', width: 8 }])
      await s.add({ n: 1 })
      throw new Error('database went away')
    })
    await expect(bytesOf(failing)).rejects.toThrow()
    const unclosed = streamWorkbook(logger, 'test', async (addSheet) => {
      await addSheet('Open', [{ header: 'N', key: 'n', width: 8 }]).add({ n: 1 })
    })
    await expect(bytesOf(unclosed)).rejects.toThrow()
  })

  it('names columns past Z as Excel does', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA'])
  })
})
