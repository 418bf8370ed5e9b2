import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { checkStatement } from './validation.ts'

const statement = () => ({
  actor: { objectType: 'Agent', account: { homePage: 'http://content.test', name: 'u1' } },
  verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
  object: { id: 'https://au.example.test/au/1' },
  context: { registration: '6fb2f6e8-3a1e-4a51-9a8d-b2f1f3c0a111', contextActivities: { category: { id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' } } },
})

describe('checkStatement', () => {
  it('fills id and timestamp and turns a lone context activity into a list', () => {
    const now = new Date('2026-02-03T04:05:06.000Z')
    const s = checkStatement(statement(), now)
    expect(s.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(s.timestamp).toBe(now.toISOString())
    expect(s.context?.contextActivities?.category).toEqual([{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }])
  })

  it('names the rules a statement breaks', () => {
    expect(() => checkStatement({ ...statement(), verb: { id: 'done' } }, new Date(), 2)).toThrow(
      /^Statement 2: statement\.verb\.id is not a valid Internationalized Resource Identifier/,
    )
    expect(() => checkStatement([statement()], new Date())).toThrow(/a statement must be a JSON object/)
  })

  // The library is CommonJS: the service runs under Node's own ESM loader, whose interop differs
  // from the tests' (Vite): the check must work there too.
  it('works under Node itself, as the service runs', async () => {
    const here = fileURLToPath(new URL('./validation.ts', import.meta.url))
    const script = `const { checkStatement } = await import(${JSON.stringify(here)});
      const s = checkStatement(${JSON.stringify(statement())}, new Date());
      let refused = ''; try { checkStatement({ verb: {} }, new Date()) } catch (e) { refused = e.message }
      console.log(JSON.stringify({ id: s.id, refused }))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('../..', import.meta.url)) })
    const out = JSON.parse(stdout) as { id: string; refused: string }
    expect(out.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(out.refused).toMatch(/statement\.actor is required/)
  })
})
