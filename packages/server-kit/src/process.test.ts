import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const run = (body: string) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const script = `import { closeOnSignal } from ${JSON.stringify(new URL('./process.ts', import.meta.url).pathname)}
${body}
process.stdout.write('ready\\n'); setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script])
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('ready\n') && !out.includes('sent')) {
        out += 'sent\n'
        child.kill('SIGTERM')
      }
    })
    child.on('exit', (code) => resolve({ code, out }))
  })

describe('closeOnSignal', () => {
  it('closes everything in order on SIGTERM and exits 0', async () => {
    const r = await run(`closeOnSignal(undefined, async () => process.stdout.write('a\\n'), async () => process.stdout.write('b\\n'))`)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/a\nb\n/)
  })
  it('exits 1 when closing fails', async () => {
    const r = await run(`closeOnSignal(undefined, async () => { throw new Error('stuck') })`)
    expect(r.code).toBe(1)
  })
})
