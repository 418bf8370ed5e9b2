import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import pg from 'pg'
import { PlatformEnv, createTokenIssuer, loadOrCreateSigningKey } from '@portal/server-kit'
const url = 'postgres://postgres@127.0.0.1:5432/bench_team'
const env = PlatformEnv.parse({})
const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 7200 })
const proc = spawn(process.execPath, [...(process.env.FLAGS ? process.env.FLAGS.split(' ') : []), 'bench/team-server.ts'], { env: { ...process.env, DATABASE_URL: url, BENCH_JWKS: JSON.stringify(issuer.jwks()) }, stdio: ['ignore', 'pipe', 'inherit'] })
const port = await new Promise<number>((res) => proc.stdout!.on('data', (d) => { const m = /READY (\d+)/.exec(String(d)); if (m) res(Number(m[1])) }))
const c = new pg.Client({ connectionString: url }); await c.connect()
const { rows } = await c.query('select id from users where is_admin limit 1'); await c.end()
const id = rows[0].id
const auth = { authorization: `Bearer ${await issuer.sign({ userId: id, email: 'admin@bench.test', name: 'Bench Admin', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } })}` }
const st = async () => { const s = await readFile(`/proc/${proc.pid}/status`, 'utf8'); return { rss: /VmRSS:\s+(\d+)/.exec(s)![1], hwm: /VmHWM:\s+(\d+)/.exec(s)![1] } }
console.log('idle', await st())
await writeFile(`/proc/${proc.pid}/clear_refs`, '5')
const t0 = performance.now()
const res = await fetch(`http://127.0.0.1:${port}/reports/certifications/export?format=excel`, { headers: auth })
let bytes = 0; for await (const ch of res.body!) bytes += ch.length
console.log('export', res.status, bytes, ((performance.now() - t0) / 1000).toFixed(2), 's', await st())
proc.kill()
