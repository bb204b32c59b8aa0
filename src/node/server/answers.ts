// Writing the mock's answers to the wire: whole, passed on as they come, or broken as a fault asks, and
// all of a turn's answers together (createBatchedWriter).
import type http from 'node:http'
import { pipeline } from 'node:stream'
import { describeError } from '../../core/errors.js'
import type { RelayResponse } from '../../core/service/mock.js'

/** The pipeline never throws; this is the last guard so that no request goes unanswered (nor a throw ends the process). */
export function lastResort(res: http.ServerResponse, error: unknown): void {
  // Failed halfway through an answer: nothing whole can be sent any more.
  if (res.headersSent) return void res.destroy()
  res.writeHead(500, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ message: `The mock failed: ${describeError(error)}` }))
}

/**
 * Writes answers at the end of this turn of the event loop, all together, instead of each as soon as it
 * is made. Every write to a client that waits is a system call that wakes the client's thread; on a
 * machine with few cores (a CI runner's two), a server that wakes its clients between one request and
 * the next pays that wake-up on nearly every answer, and it can cost as much as the answer itself.
 * Written one after another, the answers to the requests read in one turn wake their clients once.
 * An answer waits at most for the requests read in the same turn (setImmediate runs right after the
 * loop's poll for input), and a connection's answers keep their order.
 */
export function createBatchedWriter(): (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answer: RelayResponse,
) => void {
  let queue: Array<{ req: http.IncomingMessage; res: http.ServerResponse; answer: RelayResponse }> = []
  const flush = () => {
    const batch = queue
    queue = []
    for (const { req, res, answer } of batch) {
      try {
        if (answer.fault) breakAnswer(req, res, answer)
        else writeAnswer(res, answer)
      } catch (error) {
        lastResort(res, error)
      }
    }
  }
  return (req, res, answer) => {
    if (queue.push({ req, res, answer }) === 1) setImmediate(flush)
  }
}

/**
 * Runs `then` once this turn's answers are written and carried out: those made before the call and later
 * in the same turn are written in this turn's check phase (createBatchedWriter), a reset among them goes
 * in the next turn's (breakAnswer), and `then` runs after it there.
 */
export function afterTurnsAnswers(then: () => void): void {
  setImmediate(() => setImmediate(then))
}

export function writeAnswer(res: http.ServerResponse, answer: RelayResponse): void {
  if (answer.passedOn) return passOn(res, answer, answer.passedOn)
  // A HEAD's answer names the length of the body GET would send; a 204 names none (RFC 9110 8.6).
  const length =
    answer.status === 204 ? undefined : (answer.headers['content-length'] ?? Buffer.byteLength(answer.text))
  res.writeHead(answer.status, length === undefined ? answer.headers : { ...answer.headers, 'content-length': length })
  res.end(answer.text)
}

/**
 * Sends a body as it comes (a proxied answer larger than the body limit): at the client's pace, and if
 * either side breaks off, so does the other (the client sees the upstream's answer broken off; a client
 * gone breaks off the upstream's answer).
 */
function passOn(res: http.ServerResponse, answer: RelayResponse, body: AsyncIterable<Uint8Array>): void {
  res.writeHead(answer.status, answer.headers)
  pipeline(body, res, (error) => {
    if (error) res.destroy()
  })
}

/** Carries out a fault that is no answer, or a broken one: what a real network does to a client. */
function breakAnswer(req: http.IncomingMessage, res: http.ServerResponse, answer: RelayResponse): void {
  const socket = req.socket
  switch (answer.fault) {
    case 'reset':
      // An RST, not a FIN: the client sees ECONNRESET with no status line. A turn later, once Node has
      // finished with the answers sent before it on this connection (pipelined): reset at once, while the
      // last one's bookkeeping is still under way, the socket was closed with a FIN instead.
      setImmediate(() => {
        // Only a TCP socket can be reset (a server on a Unix socket or a pipe cannot): closed, the client still sees no answer.
        try {
          socket.resetAndDestroy()
        } catch {
          socket.destroy()
        }
      })
      return
    case 'hang':
      // Nothing is written; the socket stays open until the client gives up (or the server closes).
      socket.setTimeout(0)
      res.once('close', () => answer.onClosed?.())
      return
    case 'truncated': {
      const body = Buffer.from(answer.text, 'utf8')
      res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length })
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy())
      return
    }
    default:
      writeAnswer(res, answer)
  }
}
