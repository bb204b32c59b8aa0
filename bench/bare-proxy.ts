// The proxy benchmark's baseline: the least a forwarding proxy written in Node does for the same
// traffic. A node:http server that sends each request on with undici's Pool (kept-alive connections,
// as relay-mock proxy's), reads the answer whole and writes it back; no route, token, journal,
// ledger or fault. What relay-mock proxy adds beyond it is its own cost; what this adds to the server
// behind it is what any proxy costs on the machine.
import http from 'node:http'
import { Pool } from 'undici'

/** Hop-by-hop headers, and those the proxy sets itself. */
const DROP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'content-length',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'date',
])

/**
 * A bare forwarding proxy to `upstream` (a base URL).
 * @example createBareProxy('http://127.0.0.1:4010').listen(0)
 */
export function createBareProxy(upstream: string): http.Server {
  const pool = new Pool(upstream, { connections: 256, pipelining: 1 })
  const pass = (headers: Record<string, string | string[] | undefined>) => {
    const out: Record<string, string | string[]> = {}
    for (const name in headers) if (!DROP.has(name) && headers[name] !== undefined) out[name] = headers[name]!
    return out
  }
  return http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
      pool
        .request({ method: req.method as 'GET' | 'POST', path: req.url ?? '/', headers: pass(req.headers), body })
        .then(
          async (answer) => {
            const text = Buffer.from(await answer.body.arrayBuffer())
            res.writeHead(answer.statusCode, { ...pass(answer.headers), 'content-length': text.length })
            res.end(text)
          },
          () => {
            res.writeHead(502)
            res.end()
          },
        )
    })
  })
}
