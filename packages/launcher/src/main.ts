/**
 * Single-node mode: the gateway and every service in one process, each still its own Hono app
 * with its own database. What is not configured falls back to embedded defaults: PGlite per
 * service, the in-process bus, the dev mailbox. Data lives under DATA_DIR (.data by default).
 */
import { mkdir } from 'node:fs/promises'
import { z } from 'zod'
import { PlatformEnv, closeOnSignal, createInProcessBus, createLogger, createNatsBus, parseEnv, publicUrl, type EventBus } from '@portal/server-kit'
import { start as startIdentity, seedDemoData } from 'svc-identity/server'
import { start as startLearning, seedDemoData as seedLearning } from 'svc-learning/server'
import { start as startNotify } from 'svc-notify/server'
import { start as startGateway } from 'gateway/server'

const Env = PlatformEnv.extend({ HOST: z.string().default('127.0.0.1'), DEMO_DATA: z.enum(['on', 'off']).default('on') })

export async function startSingleNode(source: Record<string, string | undefined> = process.env) {
  const parsed = parseEnv(Env, source)
  // E-mailed links follow the gateway's port unless PUBLIC_URL says otherwise. With PORT=0 the
  // port is known once the gateway listens: the address is filled in then, before any request.
  const env = { ...parsed, PUBLIC_URL: parsed.PORT ? publicUrl(parsed, parsed.PORT) : parsed.PUBLIC_URL }
  const logger = createLogger('portal', env.LOG_LEVEL)
  await mkdir(env.DATA_DIR, { recursive: true })
  const bus: EventBus = env.NATS_URL ? await createNatsBus({ url: env.NATS_URL, logger }) : createInProcessBus({ logger })

  // Consumers first, so the identity outbox has someone to deliver to from the start.
  const notify = await startNotify({ env, logger: logger.child({ service: 'notify' }), bus, port: 0 })
  const identity = await startIdentity({ env, logger: logger.child({ service: 'identity' }), bus, port: 0 })
  const learning = await startLearning({ env, logger: logger.child({ service: 'learning' }), bus, port: 0, jwks: new URL(identity.jwksUrl) })
  const logins = env.DEMO_DATA === 'on' ? await seedDemoData(identity) : []
  if (env.DEMO_DATA === 'on') await seedLearning(learning)
  const gateway = await startGateway({
    logger: logger.child({ service: 'gateway' }),
    port: env.PORT,
    hostname: env.HOST,
    upstreams: {
      identity: `http://127.0.0.1:${identity.port}`,
      learning: `http://127.0.0.1:${learning.port}`,
      notify: `http://127.0.0.1:${notify.port}`,
    },
  })

  env.PUBLIC_URL ??= publicUrl(env, gateway.port)
  const url = env.PUBLIC_URL
  const lines = [
    '',
    `  Learning portal (single-node) at ${url}`,
    `  database: ${env.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite under ${env.DATA_DIR}/pg`}, events: ${bus.kind}, mail: ${env.SMTP_URL ? 'SMTP' : `dev mailbox at ${url}/mailbox`}`,
  ]
  if (logins.length) {
    lines.push('  demo logins (created on first start):')
    for (const l of logins) lines.push(`    ${l.role.padEnd(10)} ${l.email.padEnd(32)} ${l.password}`)
  }
  process.stdout.write(lines.join('\n') + '\n\n')

  let closing = false
  const close = async () => {
    if (closing) return
    closing = true
    await gateway.close()
    await learning.close()
    await identity.close()
    await notify.close()
    await bus.close()
  }
  return { port: gateway.port, url, close }
}

if (import.meta.main) {
  const portal = await startSingleNode()
  closeOnSignal(undefined, portal.close)
}
