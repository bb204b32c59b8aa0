// The benchmark's baseline: a bare node:http server answering precomputed JSON, the least any
// Node server can do for the same answers. Run directly (`node bare-server.js <port> <json>`, port 0 for any) it is
// the spawn-time baseline; imported, it is the throughput baseline.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { pathToFileURL } from 'node:url'

/**
 * A server doing the same JSON work as the mock and nothing else: GET serializes the answer the mock
 * gives (`getText`, parsed once) on every request; POST reads and parses the body, makes a fresh id and
 * serializes `{ id, link }` as the mock answers. No routing, validation, store or journal.
 *
 * With `batched`, it writes the answers of one turn of the event loop together at its end, as relay-mock's
 * Node server does (see createBatchedWriter in src/node/server/server.ts): what is left between the two is the
 * cost of relay-mock's pipeline alone.
 * @example createBareServer('[]', '{"id":"…","link":"/payments/…"}').listen(0)
 */
export function createBareServer(
  getText: string,
  postText: string,
  { batched = false }: { batched?: boolean } = {},
): http.Server {
  const getValue: unknown = JSON.parse(getText)
  const { link } = JSON.parse(postText) as { link?: string }
  const resource = link?.split('/')[1] ?? 'payments'
  const write = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    })
    res.end(text)
  }
  let queue: Array<[http.ServerResponse, number, string]> = []
  const flush = () => {
    const batch = queue
    queue = []
    for (const [res, status, text] of batch) write(res, status, text)
  }
  const send = batched
    ? (res: http.ServerResponse, status: number, text: string) => {
        if (queue.push([res, status, text]) === 1) setImmediate(flush)
      }
    : write
  return http.createServer((req, res) => {
    if (req.method !== 'POST') {
      send(res, 200, JSON.stringify(getValue))
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const id = randomUUID()
      send(res, 201, JSON.stringify({ id, link: `/${resource}/${id}` }))
    })
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [port = '0', text = '[]'] = process.argv.slice(2)
  const server = createBareServer(text, text)
  // Its address, printed as `relay-mock serve` prints its own: the benchmark reads the port from it.
  server.listen(Number(port), '127.0.0.1', () =>
    console.log(`listening at http://127.0.0.1:${(server.address() as { port: number }).port}`),
  )
}
