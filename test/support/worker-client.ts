// A Node client script run in a worker thread of the test's process instead of a process of its own:
// the same script, unchanged, with the case's variables as its process.env, its exit code and its result
// file, at a fraction of a process's start (no new Node, the script's modules loaded per thread).
import { resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { ClientFunction } from '../../src/node/runner/contract.js'

/**
 * A runConformance client function that runs `file` in a fresh worker thread per case. The runner reads
 * RELAY_RESULT_FILE as it does for a process; an exit code other than 0 counts as exit 1, with the
 * script's stderr in the error.
 * @example runConformance({ client: workerClient('dist/examples/clients/typescript/client.js') })
 */
export function workerClient(file: string): ClientFunction {
  const script = resolve(file)
  const client: ClientFunction = (_visit, env, { signal }) =>
    new Promise<undefined>((resolve, reject) => {
      const worker = new Worker(script, { env: { ...process.env, ...env }, argv: [], stdout: true, stderr: true })
      let stderr = ''
      worker.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)))
      worker.stdout.resume()
      // The run gave up on the case (its timeout, an interrupt): end the thread, as it would kill a process.
      const stop = () => void worker.terminate()
      signal.addEventListener('abort', stop, { once: true })
      worker.on('error', (error) => reject(error))
      worker.on('exit', (code) => {
        signal.removeEventListener('abort', stop)
        if (code === 0) resolve(undefined)
        else reject(new Error(`${file} exited ${code}:\n${stderr}`))
      })
    })
  Object.defineProperty(client, 'name', { value: `node ${file} (in a worker thread)` })
  return client
}
