import { BlockList, isIP } from 'node:net'

/** The peers whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`). */
export interface TrustedProxies {
  trusts(address: string): boolean
}

/** `::ffff:10.0.0.1` (an IPv4 peer of a dual-stack socket) is 10.0.0.1; brackets go. */
const normalize = (address: string) => {
  const a = address.trim().replace(/^\[(.*)\]$/, '$1')
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4')

/**
 * Parses a comma-separated list of IP addresses, CIDR ranges and `loopback` (127.0.0.0/8 and ::1),
 * e.g. `loopback, 10.0.0.0/8, fd00::/8`; an empty list trusts nobody. Throws naming the first entry
 * that is none of these.
 */
export function trustedProxies(list: string): TrustedProxies {
  const rules = new BlockList()
  for (const entry of list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    if (entry === 'loopback') {
      rules.addSubnet('127.0.0.0', 8, 'ipv4')
      rules.addAddress('::1', 'ipv6')
      continue
    }
    const [address, prefix, extra] = entry.split('/')
    const ip = normalize(address!)
    const version = isIP(ip)
    const bits = prefix === undefined ? undefined : Number(prefix)
    if (!version || extra !== undefined || prefix === '' || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= (version === 4 ? 32 : 128))))
      throw new Error(`not an IP address, CIDR range or "loopback": ${entry}`)
    if (bits === undefined) rules.addAddress(ip, family(ip))
    else rules.addSubnet(ip, bits, family(ip))
  }
  return {
    trusts(address) {
      const ip = normalize(address)
      return isIP(ip) !== 0 && rules.check(ip, family(ip))
    },
  }
}

/** Loopback only: the default (the gateway on the same host). */
export const LOOPBACK_PROXIES = trustedProxies('loopback')

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then `X-Forwarded-For` is
 * read from the right (each proxy appends the address it was reached from), skipping trusted
 * proxies, up to the first address that is not one. A client cannot choose its address by
 * sending the header itself: an untrusted peer's header is ignored, and what a client wrote is left
 * of what its proxies appended.
 */
export function clientAddressFrom(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let address = peer ? normalize(peer) : 'unknown'
  if (!forwardedFor || !trusted.trusts(address)) return address
  const hops = forwardedFor.split(',')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]!)
    if (!isIP(hop)) break // garbage from a proxy: the last address known is as far as it goes
    address = hop
    if (!trusted.trusts(hop)) break
  }
  return address
}
