// The benchmark's baseline: a bare node:http server answering precomputed JSON, the least any
// Node server can do for the same answers. Run directly (`node bare-server.js <port> <json>`) it is
// the spawn-time baseline; imported, it is the throughput baseline.
import http from 'node:http'
import { pathToFileURL } from 'node:url'

/**
 * A server that answers GET with `getText` (200) and POST, once its body is read and parsed, with
 * `postText` (201): what the mock answers, with none of its work.
 * @example createBareServer('[]', '{"id":"…","link":"/payments/…"}').listen(0)
 */
export function createBareServer(getText: string, postText: string): http.Server {
  const getLength = Buffer.byteLength(getText)
  const postLength = Buffer.byteLength(postText)
  return http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': getLength })
      res.end(getText)
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': postLength })
      res.end(postText)
    })
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [port = '0', text = '[]'] = process.argv.slice(2)
  createBareServer(text, text).listen(Number(port), '127.0.0.1')
}
