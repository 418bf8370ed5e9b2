import { describe, expect, it } from 'vitest'
import { loadDigestSettings, loadNotifyEnv } from './env.ts'

const cluster = { DATABASE_URL: 'postgresql://db:5432/portal', NATS_URL: 'nats://nats:4222', SMTP_URL: 'smtp://mail:25', IDENTITY_JWKS_URL: 'http://identity:4001/auth/jwks.json' }

describe('svc-notify configuration', () => {
  it('listens on 4004 unless NOTIFY_PORT or PORT says otherwise', () => {
    expect(loadNotifyEnv(cluster).port).toBe(4004)
    expect(loadNotifyEnv({ ...cluster, PORT: '5000' }).port).toBe(5000)
    expect(loadNotifyEnv({ ...cluster, PORT: '5000', NOTIFY_PORT: '6000' }).port).toBe(6000)
  })

  it('listens on loopback unless NOTIFY_HOST or HOST says otherwise', () => {
    expect(loadNotifyEnv(cluster).hostname).toBe('127.0.0.1')
    expect(loadNotifyEnv({ ...cluster, HOST: '0.0.0.0' }).hostname).toBe('0.0.0.0')
    expect(loadNotifyEnv({ ...cluster, HOST: '0.0.0.0', NOTIFY_HOST: '10.0.0.4' }).hostname).toBe('10.0.0.4')
  })

  it('fails listing every missing engine when run on its own', () => {
    expect(() => loadNotifyEnv({ NATS_URL: 'not a url' })).toThrow(/DATABASE_URL[\s\S]*NATS_URL[\s\S]*SMTP_URL[\s\S]*IDENTITY_JWKS_URL/)
  })
})

describe('training-due digest settings', () => {
  it('settles for 60 s in the company time zone unless told', () => {
    expect(loadDigestSettings({})).toEqual({ settleMs: 60_000, timeZone: 'America/Los_Angeles' })
    expect(loadDigestSettings({ DIGEST_SETTLE_MS: '', COMPANY_TIME_ZONE: '' })).toEqual({ settleMs: 60_000, timeZone: 'America/Los_Angeles' })
    expect(loadDigestSettings({ DIGEST_SETTLE_MS: '250', COMPANY_TIME_ZONE: 'Europe/Berlin' })).toEqual({ settleMs: 250, timeZone: 'Europe/Berlin' })
  })

  it('names each bad variable', () => {
    expect(() => loadDigestSettings({ DIGEST_SETTLE_MS: '-1', COMPANY_TIME_ZONE: 'Mars/Olympus' })).toThrow(/DIGEST_SETTLE_MS[\s\S]*COMPANY_TIME_ZONE/)
  })
})
