// The port serve and proxy listen at, reserved first where each makes its server: a busy port, an address
// not of this machine or a name that does not resolve is refused naming --port or --host, before a world
// (seconds for a large fleet) is built.
import { reservePort, type ReservedPort } from '../../node/server/server.js'
import { refused } from '../checks.js'

/**
 * Listens at host and port, and keeps the socket for the server (see reservePort); a UsageError naming
 * --host or --port if it cannot. Whether the name resolves, is an address of this machine and has the
 * port free is known only by trying, and trying first costs nothing while the world (seconds for a large
 * fleet) is not built yet.
 * @example const reserved = await reserveListening('127.0.0.1', 4010) // then: listen(server, { reserved })
 */
export async function reserveListening(host: string, port: number): Promise<ReservedPort> {
  try {
    return await reservePort(host, port)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      throw refused(
        '--port',
        String(port),
        `is in use on ${host}`,
        'a free port (stop what uses it, or pass --port 0 to pick one)',
      )
    if (code === 'EACCES')
      throw refused(
        '--port',
        String(port),
        'is not allowed for this user',
        'a port above 1023, or 0 to pick a free one',
      )
    if (code === 'EADDRNOTAVAIL')
      throw refused(
        '--host',
        host,
        'is not an address of this machine',
        'one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every address)',
      )
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
      throw refused(
        '--host',
        host,
        'does not resolve to an address',
        'an IP address or a host name that resolves, such as 127.0.0.1 or localhost',
      )
    throw error
  }
}
