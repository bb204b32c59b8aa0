// The CPU time a run costs, read while it goes: the kit's own process (the service, the rules, clients
// run in-process), the client processes it has seen end (the kernel adds an ended child's time, and its
// ended descendants', to its parent's), and those still running (Linux's /proc; elsewhere only the kit's
// own, and the clients' time is unknown).
import { readFileSync } from 'node:fs'

/** CPU time in ms, from the moment a CpuTime was made. */
export interface CpuSpent {
  /** The kit's own process: the service, the rules, in-process clients. */
  kitMs: number
  /** Client processes that have ended (undefined without /proc). */
  endedMs?: number
  /** Client processes still running, each with what its ended children cost (0 without /proc). */
  runningMs: number
  /** All three. */
  totalMs: number
}

export interface CpuTime {
  /** What was spent since the CpuTime was made; `running` are the pids of the clients still running. */
  since(running?: Iterable<number>): CpuSpent
}

/** Clock ticks a second in /proc's figures (USER_HZ, 100 on Linux whatever the kernel's own tick). */
const TICKS_PER_S = 100

/** utime, stime, cutime and cstime of /proc/PID/stat in ms: [own, ended children's]; undefined when unreadable. */
function readTimes(pid: number | 'self'): [number, number] | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name sits in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const ms = (index: number) => (Number(fields[index]) * 1000) / TICKS_PER_S
  return [ms(11) + ms(12), ms(13) + ms(14)]
}

/**
 * Starts counting CPU time from now.
 * @example const cpu = cpuTime(); await run(); cpu.since().endedMs // 4210: the clients that ended
 */
export function cpuTime(): CpuTime {
  const kit0 = process.cpuUsage()
  const ended0 = readTimes('self')?.[1]
  return {
    since(running = []) {
      const kit = process.cpuUsage(kit0)
      const kitMs = (kit.user + kit.system) / 1000
      const ended = ended0 === undefined ? undefined : (readTimes('self')?.[1] ?? ended0) - ended0
      let runningMs = 0
      if (ended !== undefined) {
        for (const pid of running) {
          const times = readTimes(pid)
          if (times) runningMs += times[0] + times[1]
        }
      }
      return {
        kitMs,
        ...(ended === undefined ? {} : { endedMs: ended }),
        runningMs,
        totalMs: kitMs + (ended ?? 0) + runningMs,
      }
    },
  }
}
