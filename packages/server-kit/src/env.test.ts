import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { PlatformEnv, parseEnv, publicUrl, serviceDatabaseUrl } from './env.ts'

describe('parseEnv', () => {
  it('applies the defaults of the platform variables', () => {
    const env = parseEnv(PlatformEnv, {})
    expect(env).toMatchObject({ NODE_ENV: 'development', PORT: 8080, DATA_DIR: '.data', JWT_AUDIENCE: 'portal', COMPANY_EMAIL_DOMAIN: 'example.com' })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('parses the cluster URLs and coerces numbers', () => {
    const env = parseEnv(PlatformEnv, {
      PORT: '3001',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/identity',
      NATS_URL: 'nats://127.0.0.1:4222',
      COMPANY_EMAIL_DOMAIN: ' Example.COM ',
    })
    expect(env.PORT).toBe(3001)
    expect(env.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/identity')
    expect(env.NATS_URL).toBe('nats://127.0.0.1:4222')
    expect(env.COMPANY_EMAIL_DOMAIN).toBe('example.com')
  })

  it('treats empty optional variables as unset', () => {
    const env = parseEnv(PlatformEnv, { DATABASE_URL: '', NATS_URL: ' ', ADMIN_REGISTRATION_CODE: '', PUBLIC_URL: '' })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.NATS_URL).toBeUndefined()
    expect(env.ADMIN_REGISTRATION_CODE).toBeUndefined()
    expect(env.PUBLIC_URL).toBeUndefined()
  })

  it('lists every bad key in one error', () => {
    let message = ''
    try {
      parseEnv(PlatformEnv, { PORT: 'eighty', NODE_ENV: 'staging', DATABASE_URL: 'not a url', COMPANY_EMAIL_DOMAIN: 'nodot', LOG_LEVEL: 'loud' })
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/^Invalid configuration:/)
    for (const key of ['PORT', 'NODE_ENV', 'DATABASE_URL', 'COMPANY_EMAIL_DOMAIN', 'LOG_LEVEL']) expect(message).toContain(`  ${key}: `)
    expect(message).toContain('must be a domain such as example.com')
  })

  it('works with a service schema extending the platform one', () => {
    const Env = PlatformEnv.extend({ SECRET: z.string().min(10) })
    expect(() => parseEnv(Env, { SECRET: 'short', PORT: '-1' })).toThrow(/SECRET[\s\S]*PORT|PORT[\s\S]*SECRET/)
    expect(parseEnv(Env, { SECRET: 'long enough secret' }).SECRET).toBe('long enough secret')
  })
})

describe('serviceDatabaseUrl', () => {
  it('names the service database on the shared server', () => {
    expect(serviceDatabaseUrl('postgresql://u:p@db:5432/postgres', 'svc-identity')).toBe('postgresql://u:p@db:5432/svc_identity')
    expect(serviceDatabaseUrl('postgresql://db:5432', 'notify')).toBe('postgresql://db:5432/notify')
  })
  it('puts DATABASE_NAME_PREFIX before the name (several portals on one server)', () => {
    expect(serviceDatabaseUrl('postgresql://u:p@db:5432/postgres', 'svc-identity', 't1_')).toBe('postgresql://u:p@db:5432/t1_svc_identity')
    expect(() => parseEnv(PlatformEnv, { DATABASE_NAME_PREFIX: 'T1-' })).toThrow(/DATABASE_NAME_PREFIX/)
    expect(() => parseEnv(PlatformEnv, { NATS_SUBJECT_PREFIX: 't1' })).toThrow(/NATS_SUBJECT_PREFIX/)
    expect(parseEnv(PlatformEnv, { NATS_STREAM: 'T1_EVENTS', NATS_SUBJECT_PREFIX: 't1.' })).toMatchObject({ NATS_STREAM: 'T1_EVENTS', NATS_SUBJECT_PREFIX: 't1.' })
  })
})

describe('publicUrl', () => {
  it("follows the gateway's port when PUBLIC_URL is unset", () => {
    expect(publicUrl({}, 9123)).toBe('http://localhost:9123')
    expect(publicUrl({})).toBe('http://localhost:8080')
  })

  it('prefers PUBLIC_URL, without a trailing slash', () => {
    expect(publicUrl({ PUBLIC_URL: 'https://learn.example.com/' }, 9123)).toBe('https://learn.example.com')
  })
})
