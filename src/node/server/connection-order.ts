// The order a connection's requests are handled in: one after another, as they were sent.
import type { Socket } from 'node:net'
import { afterTurnsAnswers } from './answers.js'

/** How many requests a broken connection takes in before it is closed (see createConnectionOrder). */
export const BROKEN_CONNECTION_BACKLOG = 64

/** A request's turn on its connection: `done()` when its answer is made, `done(true)` when that answer broke the connection. */
type Turn = (done: (broken?: boolean) => void) => void

/**
 * Handles a connection's requests one after another, in the order they were sent, as a service that
 * reads one request at a time does. Node reads pipelined requests at once (HTTP/1.1 lets a client send
 * the next before the last is answered): a lookup sent right after a create would otherwise be answered
 * while the create's body is still being read, from the world before it. A request answered in the turn
 * it was read (most lookups) costs nothing here; one that waits (a body, latency, a fault) holds those
 * behind it until its answer is made. The answers' order on the wire is Node's to keep, and it does.
 *
 * After an answer that broke the connection (a reset, a hang, a cut answer) the connection handles
 * nothing more: what was waiting behind it and what comes after is dropped unhandled. Node still reads
 * what a client pipelines behind a hang, and with no answer ever written nothing slows the client down,
 * so a connection that sends more than BROKEN_CONNECTION_BACKLOG requests behind its broken answer is
 * closed, as a real server's full receive window would have stopped the client long before.
 */
export function createConnectionOrder(): (socket: Socket, task: Turn) => void {
  /** The requests waiting behind one still being handled, by connection. */
  const waiting = new WeakMap<Socket, Turn[]>()
  /** The connections that a broken answer ended, with how many requests came after it. */
  const broken = new WeakMap<Socket, number>()
  const dropped = (socket: Socket, count = 1): void => {
    const before = broken.get(socket) ?? 0
    broken.set(socket, before + count)
    if (before > BROKEN_CONNECTION_BACKLOG || before + count <= BROKEN_CONNECTION_BACKLOG) return
    // Reads no more at once, and closes once the broken answer is carried out: closed now, the connection
    // lost the answers made before it in this turn, and a reset came as a plain end.
    socket.pause()
    afterTurnsAnswers(() => socket.destroy())
  }
  const start = (socket: Socket, task: Turn): void => {
    let settled = false
    let returned = false
    const done = (breaks = false) => {
      if (settled) return
      settled = true
      if (breaks) return breakOff(socket)
      // Finished within the call: the loop below goes on with the next.
      if (returned) next(socket)
    }
    task(done)
    returned = true
    if (!settled && !waiting.has(socket)) waiting.set(socket, [])
  }
  const breakOff = (socket: Socket): void => {
    const behind = waiting.get(socket)
    waiting.delete(socket)
    broken.set(socket, 0)
    if (behind) dropped(socket, behind.length)
  }
  const next = (socket: Socket): void => {
    const queue = waiting.get(socket)
    if (!queue) return
    waiting.delete(socket)
    while (queue.length > 0) {
      start(socket, queue.shift()!)
      if (broken.has(socket)) return dropped(socket, queue.length)
      // The one started waits in turn: those after it wait behind it.
      const behind = waiting.get(socket)
      if (behind) return void behind.push(...queue)
    }
  }
  return (socket, task) => {
    if (broken.has(socket)) return dropped(socket)
    const queue = waiting.get(socket)
    if (queue) queue.push(task)
    else start(socket, task)
  }
}
