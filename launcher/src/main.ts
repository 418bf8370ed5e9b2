/**
 * Single-node mode: the gateway and every service in one process, each still its own Hono app
 * with its own database. What is not configured falls back to embedded defaults: PGlite per
 * service, the in-process bus, the dev mailbox. Data lives under DATA_DIR (.data by default).
 */
import { mkdir } from 'node:fs/promises'
import { createServer } from 'node:net'
import { z } from 'zod'
import {
  PlatformEnv,
  closeOnSignal,
  createInProcessBus,
  createLogger,
  createNatsBus,
  createShutdownStack,
  parseEnv,
  publicUrl,
  startTracing,
  type EventBus,
  type KeySource,
} from '@portal/server-kit'
import { IdentitySettings, start as startIdentity, seedDemoData } from 'svc-identity/server'
import { start as startLearning, seedDemoData as seedLearning } from 'svc-learning/server'
import { start as startCerts, seedDemoData as seedCerts } from 'svc-certs/server'
import { start as startNotify } from 'svc-notify/server'
import { ContentEnv, contentListenerOf, start as startGateway } from 'gateway/server'
import { DEMO_ADMIN_CODE } from './demo.ts'

// Identity's own settings (token lifetimes, limits) pass through to it.
const Env = PlatformEnv.extend(IdentitySettings.shape)
  .extend({ HOST: z.string().default('127.0.0.1'), DEMO_DATA: z.enum(['on', 'off']).default('on') })
  .extend(ContentEnv.shape)

/** A port nobody listens on now (learning must know the content origin before the gateway listens). */
const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

export async function startSingleNode(source: Record<string, string | undefined> = process.env) {
  const parsed = parseEnv(Env, source)
  // E-mailed links follow the gateway's port unless PUBLIC_URL says otherwise. With PORT=0 the
  // port is known once the gateway listens: the address is filled in then, before any request.
  const env = {
    ...parsed,
    PUBLIC_URL: parsed.PORT ? publicUrl(parsed, parsed.PORT) : parsed.PUBLIC_URL,
    ADMIN_REGISTRATION_CODE: parsed.ADMIN_REGISTRATION_CODE ?? (parsed.DEMO_DATA === 'on' ? DEMO_ADMIN_CODE : undefined),
  }
  // Someone at a terminal reads pretty lines; piped output (CI, a log collector) stays JSON.
  const logger = createLogger('portal', env.LOG_LEVEL, { format: env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json') })
  await mkdir(env.DATA_DIR, { recursive: true })
  // What started is closed in the reverse order (the gateway first, the bus last), also when a
  // later part fails to start.
  const stack = createShutdownStack(logger)
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set; its spans are flushed last.
  const tracing = startTracing('portal', env)
  stack.defer(tracing.shutdown)
  try {
    const bus: EventBus = await stack.add(
      env.NATS_URL ? createNatsBus({ url: env.NATS_URL, logger, stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX }) : createInProcessBus({ logger }),
    )
    // Course content is served on an origin of its own (decision "content-origin"): a second port.
    let content = contentListenerOf(env)
    if (!content.origin) content = contentListenerOf({ ...env, CONTENT_PORT: await freePort(env.HOST) })

    // The services listen on loopback and are reached only by the gateway in this process: it is the
    // one proxy they trust (TRUSTED_PROXIES names the reverse proxies in front of the gateway).
    const serviceEnv = { ...env, TRUSTED_PROXIES: 'loopback' }
    const service = (name: string) => ({ env: serviceEnv, logger: logger.child({ service: name }), bus, port: 0 })
    // Consumers first, so the identity outbox has someone to deliver to from the start.
    // Notify verifies admins' tokens with identity's keys, known once identity has started (same process, no rotation meanwhile).
    let identityKeys: Exclude<KeySource, URL | (() => unknown)> = { keys: [] }
    const notify = await stack.add(startNotify({ ...service('notify'), jwks: () => identityKeys }))
    const identity = await stack.add(startIdentity(service('identity')))
    identityKeys = await (await fetch(identity.jwksUrl)).json()
    const learning = await stack.add(startLearning({ ...service('learning'), jwks: new URL(identity.jwksUrl), contentOrigin: content.origin }))
    const certs = await stack.add(startCerts({ ...service('certs'), jwks: new URL(identity.jwksUrl) }))
    const logins = env.DEMO_DATA === 'on' ? await seedDemoData(identity) : []
    if (env.DEMO_DATA === 'on') {
      await seedLearning(learning)
      // The demo technicians reach certs through identity's events: seeding waits for them.
      await seedCerts(certs, { companyEmailDomain: env.COMPANY_EMAIL_DOMAIN })
    }
    const gateway = await stack.add(
      startGateway({
        logger: logger.child({ service: 'gateway' }),
        port: env.PORT,
        hostname: env.HOST,
        trustedProxies: env.TRUSTED_PROXIES,
        metricsToken: env.METRICS_TOKEN,
        upstreams: {
          identity: `http://127.0.0.1:${identity.port}`,
          learning: `http://127.0.0.1:${learning.port}`,
          certs: `http://127.0.0.1:${certs.port}`,
          notify: `http://127.0.0.1:${notify.port}`,
        },
        content,
      }),
    )
    env.PUBLIC_URL ??= publicUrl(env, gateway.port)
    const url = env.PUBLIC_URL
    const lines = [
      '',
      `  Learning portal (single-node) at ${url}`,
      `  course content at ${gateway.contentOrigin} (its own origin)`,
      `  database: ${env.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite under ${env.DATA_DIR}/pg`}, events: ${bus.kind}, mail: ${env.SMTP_URL ? 'SMTP' : `dev mailbox at ${url}/mailbox`}`,
    ]
    if (logins.length) {
      lines.push('  demo logins (created on first start):')
      for (const l of logins) lines.push(`    ${l.role.padEnd(10)} ${l.email.padEnd(32)} ${l.password}`)
    }
    if (env.ADMIN_REGISTRATION_CODE === DEMO_ADMIN_CODE) lines.push(`  admin code for Register as Admin: ${DEMO_ADMIN_CODE} (ADMIN_REGISTRATION_CODE sets another)`)
    process.stdout.write(lines.join('\n') + '\n\n')
    return { port: gateway.port, url, contentOrigin: gateway.contentOrigin, close: stack.close }
  } catch (err) {
    await stack.close().catch(() => undefined)
    throw err
  }
}

if (import.meta.main) {
  const portal = await startSingleNode()
  closeOnSignal(undefined, portal.close)
}
