import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { PlatformEnv, createInProcessBus, createLocalStorage, createLogger, createTokenIssuer, loadOrCreateSigningKey } from '@portal/server-kit'
import { start } from '../../svc-certs/src/server.ts'
const url = 'postgres://postgres@127.0.0.1:5432/bench_team'
const env = PlatformEnv.parse({ LOG_LEVEL: 'error', DATA_DIR: await mkdtemp(join(tmpdir(), 'bench-certs-')) })
const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 7200 })
const logger = createLogger('certs', 'error')
const server = await start({ env, logger, bus: createInProcessBus({ logger }), port: 0, jwks: issuer.jwks(), databaseUrl: url, storage: createLocalStorage(join(env.DATA_DIR, 'storage')) })
const c = new pg.Client({ connectionString: url }); await c.connect()
const { rows } = await c.query('select id from users where is_admin limit 1'); await c.end()
const auth = { authorization: `Bearer ${await issuer.sign({ userId: rows[0].id, email: 'admin@bench.test', name: 'Bench Admin', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } })}` }
const mb = (n: number) => Math.round(n / 1048576)
const snap = (w: string) => { const m = process.memoryUsage(); console.log(w, 'rss', mb(m.rss), 'heapTotal', mb(m.heapTotal), 'heapUsed', mb(m.heapUsed), 'external', mb(m.external), 'ab', mb(m.arrayBuffers)) }
snap('idle')
const iv = setInterval(() => snap('during'), 150)
const res = await fetch(`http://127.0.0.1:${server.port}/reports/certifications/export?format=excel`, { headers: auth })
const reader = res.body!.getReader(); let bytes = 0
for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length
clearInterval(iv); snap('end'); console.log(bytes)
process.exit(0)
