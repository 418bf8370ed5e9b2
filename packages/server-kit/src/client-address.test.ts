import { describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { clientAddressFrom, trustedProxies } from './client-address.ts'
import { PlatformEnv, parseEnv } from './env.ts'
import { clientAddress, listen } from './http.ts'

describe('trustedProxies', () => {
  it('trusts the listed addresses, ranges and loopback, IPv4 and IPv6, and nothing when empty', () => {
    const t = trustedProxies('loopback, 10.0.0.0/8, 192.168.1.7, fd00::/8')
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', '10.1.2.3', '::ffff:10.1.2.3', '192.168.1.7', 'fd00::2']) expect(t.trusts(a), a).toBe(true)
    for (const a of ['192.168.1.8', '11.0.0.1', 'fe80::1', 'garbage', '']) expect(t.trusts(a), a).toBe(false)
    expect(trustedProxies('').trusts('127.0.0.1')).toBe(false)
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/', '1.2.3.4/8/1', 'localhost']) expect(() => trustedProxies(bad), bad).toThrow(/not an IP address/)
  })

  it('is TRUSTED_PROXIES: loopback by default, every bad entry reported at start', () => {
    expect(parseEnv(PlatformEnv, {}).TRUSTED_PROXIES).toBe('loopback')
    expect(() => parseEnv(PlatformEnv, { TRUSTED_PROXIES: 'loopback, 10.0.0.0/99' })).toThrow(/TRUSTED_PROXIES: not an IP address, CIDR range or "loopback": 10\.0\.0\.0\/99/)
  })
})

describe('clientAddressFrom', () => {
  const t = trustedProxies('loopback, 10.0.0.0/8')
  it('is the peer unless the peer is a trusted proxy', () => {
    expect(clientAddressFrom('203.0.113.5', '198.51.100.1', t)).toBe('203.0.113.5')
    expect(clientAddressFrom('::ffff:203.0.113.5', undefined, t)).toBe('203.0.113.5')
    expect(clientAddressFrom('127.0.0.1', undefined, t)).toBe('127.0.0.1')
  })
  it('reads X-Forwarded-For from the right, past trusted proxies, to the first address that is not one', () => {
    expect(clientAddressFrom('127.0.0.1', '198.51.100.1', t)).toBe('198.51.100.1')
    expect(clientAddressFrom('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.0.0.9', t)).toBe('198.51.100.1')
    expect(clientAddressFrom('127.0.0.1', '10.0.0.8, 10.0.0.9', t)).toBe('10.0.0.8')
    expect(clientAddressFrom('10.0.0.1', 'not-an-ip, 10.0.0.9', t)).toBe('10.0.0.9')
  })
})

describe('clientAddress in a service', () => {
  it('believes X-Forwarded-For only from the proxies it was started to trust', async () => {
    const app = new Hono()
    app.get('/who', (c) => c.json({ address: clientAddress(c) }))
    const who = async (port: number, xff: string) =>
      ((await (await fetch(`http://127.0.0.1:${port}/who`, { headers: { 'x-forwarded-for': xff } })).json()) as { address: string }).address
    const viaGateway = await listen(app, 0) // default: loopback, where the gateway is
    const direct = await listen(app, 0, '127.0.0.1', { trustedProxies: trustedProxies('192.0.2.1') })
    try {
      expect(await who(viaGateway.port, '198.51.100.7')).toBe('198.51.100.7')
      expect(await who(direct.port, '198.51.100.7')).toBe('127.0.0.1')
    } finally {
      await viaGateway.close()
      await direct.close()
    }
  })
})
