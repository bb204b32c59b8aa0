// The runs in progress in this process: their result files removed on exit, and, for a run whose caller
// gives no signal to stop it, SIGINT, SIGTERM and SIGHUP handled here (end the clients, then the process).
import { killAllClients } from '../processes/client-process.js'

/** The clean-ups of the runs in progress (their result files): one 'exit' listener serves them all. */
const activeRuns = new Set<() => void>()
/**
 * How many of them their caller stops on no signal (it gave no `signal`): while any runs, the runner
 * handles SIGINT, SIGTERM and SIGHUP itself. A caller that gives a signal handles them (conform does):
 * each signal is handled in one place.
 */
let unowned = 0

function cleanUpRuns(): void {
  for (const cleanUp of activeRuns) cleanUp()
}

// A signal that ends the process mid-run also ends the clients and removes the result files;
// client-process.ts kills the clients on exit.
function onInterrupt(signal: NodeJS.Signals): void {
  killAllClients()
  cleanUpRuns()
  activeRuns.clear()
  unowned = 0
  process.off('exit', cleanUpRuns)
  setSignals(false)
  // Nobody else handles it: end the process as the signal would have.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function setSignals(on: boolean): void {
  const method = on ? 'on' : 'off'
  process[method]('SIGINT', onInterrupt)
  process[method]('SIGTERM', onInterrupt)
  process[method]('SIGHUP', onInterrupt)
}

/** Registers a run's clean-up until the returned function is called; `owned`: its caller handles the signals. */
export function trackRun(cleanUp: () => void, owned: boolean): () => void {
  if (activeRuns.size === 0) process.on('exit', cleanUpRuns)
  if (!owned && unowned++ === 0) setSignals(true)
  activeRuns.add(cleanUp)
  return () => {
    if (!activeRuns.delete(cleanUp)) return
    if (!owned && --unowned === 0) setSignals(false)
    if (activeRuns.size === 0) process.off('exit', cleanUpRuns)
  }
}
