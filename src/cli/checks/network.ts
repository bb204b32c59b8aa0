// The network: the port and the address to listen on, whether an address is this machine only, and
// the base URL of the real service.
import { BlockList, isIP } from 'node:net'
import { refuse, type Check } from './check.js'
import { integer } from './numbers.js'

/** A TCP port; 0 lets the system pick a free one. */
export const port: Check<number> = integer({ min: 0, max: 65_535, noun: 'a port' })

/**
 * An address to listen on: an IP address or a host name (RFC 1123). Whether it resolves and is an
 * address of this machine is checked before the server starts, by trying it.
 * @example host.parse('0.0.0.0') // '0.0.0.0'
 */
export const host: Check<string> = {
  expected: 'an IP address or a host name, such as 127.0.0.1, ::1, 0.0.0.0 or localhost',
  parse(text) {
    const name = text.endsWith('.') ? text.slice(0, -1) : text
    const hostname =
      name.length <= 253 && name.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))
    if (!isIP(text) && !hostname) refuse('is not an address')
    return text
  },
}

/**
 * Whether `address` is this machine only (127.0.0.0/8, ::1, localhost): nothing else on the
 * network can reach a server listening there.
 * @example isLoopback('0.0.0.0') // false
 */
export function isLoopback(address: string): boolean {
  const name = address.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  const family = isIP(name)
  return family !== 0 && loopback.check(name, family === 4 ? 'ipv4' : 'ipv6')
}

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/**
 * The base URL of a real service: http:// or https://, with a host, no query or fragment.
 * @example upstreamUrl.parse('https://staging.example.com/api') // 'https://staging.example.com/api'
 */
export const upstreamUrl: Check<string> = {
  expected: 'the base URL of the real service, http:// or https://, such as https://staging.example.com',
  parse(text) {
    let url: URL
    try {
      url = new URL(text.trim())
    } catch {
      refuse('is not a URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`is not an http:// or https:// URL`)
    if (url.search || url.hash) refuse('has a query or a fragment')
    if (url.username || url.password) refuse('carries credentials (the client sends its own token)')
    return text.trim()
  },
}
