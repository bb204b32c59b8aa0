// Finding and killing a client's whole process tree. A process group is not enough: a client may
// start a descendant in a session of its own (setsid, a daemon) that keeps our output pipes open,
// and once its parent has exited it is adopted by init, out of reach of a walk by parent ids. So
// on Linux the tree is every process whose parent chain leads to the client, plus every process
// that carries the client's marker variable (inherited by each descendant at fork). Elsewhere
// (no /proc) the process group is what can be reached.
import { readdirSync, readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'

/** The environment variable that marks every process of one client run (not a RELAY_* contract variable). */
export const TREE_VARIABLE = 'RELAYMOCK_CLIENT_TREE'

/** One client run's tree: the root's pid (also its process group), its marker and when it started. */
export interface ProcessTree {
  pid: number
  marker: string
  /** The root's start time in clock ticks since boot (/proc), when known: no descendant started earlier. */
  startTime?: number
}

interface ProcessInfo {
  pid: number
  ppid: number
  startTime: number
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat')
    return true
  } catch {
    return false
  }
})()

/** Parses /proc/PID/stat, skipping zombies (already dead, waiting for their parent to reap them). */
function parseStat(pid: number, text: string): ProcessInfo | undefined {
  // The command name sits in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined
  return { pid, ppid: Number(fields[1]), startTime: Number(fields[19]) }
}

function readStat(pid: number): ProcessInfo | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

function lastPid(): number | undefined {
  try {
    return Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * The pids that may belong to the tree of `root`. Pids are handed out in increasing order until
 * they wrap around, so while the last pid handed out is above the root's, only the pids between
 * them can be its descendants: a few, instead of every process of the machine (reading each
 * one's /proc entry is what costs).
 */
function candidatePids(names: string[], root: number): number[] {
  const last = lastPid()
  const wrapped = last === undefined || last < root
  return names
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid && (wrapped || (pid >= root && pid <= last)))
}

function listProcesses(root: number): ProcessInfo[] {
  return candidatePids(readdirSync('/proc'), root).flatMap((pid) => readStat(pid) ?? [])
}

/** The same list without blocking the event loop (the mock is serving other cases meanwhile). */
async function listProcessesAsync(root: number): Promise<ProcessInfo[]> {
  const pids = candidatePids(await readdir('/proc'), root)
  const read = await Promise.all(
    pids.map((pid) =>
      readFile(`/proc/${pid}/stat`, 'utf8').then(
        (text) => parseStat(pid, text),
        () => undefined,
      ),
    ),
  )
  return read.filter((info) => info !== undefined)
}

/**
 * When a process started (clock ticks since boot), on Linux.
 * @example startTimeOf(child.pid) // 81234567
 */
export function startTimeOf(pid: number): number | undefined {
  return hasProc ? readStat(pid)?.startTime : undefined
}

function carriesMarker(pid: number, needle: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(needle)
  } catch {
    // Gone, or another user's process: not one of ours.
    return false
  }
}

/** The processes of `all` that belong to the client's tree. */
function selectTree(tree: ProcessTree, all: ProcessInfo[]): number[] {
  const needle = Buffer.from(`${TREE_VARIABLE}=${tree.marker}\0`)
  // A process older than the client cannot be part of its tree (this skips most of the machine cheaply).
  const candidates = tree.startTime === undefined ? all : all.filter((info) => info.startTime >= tree.startTime!)
  // The root by pid only if it is the same process (its pid may have been reused once it was reaped).
  const isRoot = (info: ProcessInfo) =>
    info.pid === tree.pid && (tree.startTime === undefined || info.startTime === tree.startTime)
  const found = new Set<number>()
  for (const info of candidates) if (isRoot(info) || carriesMarker(info.pid, needle)) found.add(info.pid)
  // Children of what was found, in case one was started with a cleared environment.
  for (let grew = true; grew;) {
    grew = false
    for (const info of candidates) {
      if (!found.has(info.pid) && found.has(info.ppid)) {
        found.add(info.pid)
        grew = true
      }
    }
  }
  return [...found]
}

/**
 * The live processes of a client's tree, whatever group or session they are in (Linux; none elsewhere).
 * @example findTree({ pid: child.pid, marker }) // [4312, 4318]
 */
export function findTree(tree: ProcessTree): number[] {
  return hasProc ? selectTree(tree, listProcesses(tree.pid)) : []
}

function kill(pid: number): void {
  try {
    // A negative pid names the whole process group.
    process.kill(pid, 'SIGKILL')
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Kills a client's whole tree with SIGKILL: its process group and every descendant found outside
 * it. Synchronous, so that it is safe in an exit handler. A process may fork between the search
 * and the kill; the search repeats until it finds nothing alive (a killed process cannot fork).
 * @example killTree({ pid: child.pid, marker })
 */
export function killTree(tree: ProcessTree): void {
  kill(-tree.pid)
  for (let round = 0; round < 5; round++) {
    const alive = findTree(tree)
    if (alive.length === 0) return
    for (const pid of alive) kill(pid)
  }
}

/**
 * killTree without blocking the event loop while it reads /proc.
 * @example await endTree({ pid: child.pid, marker })
 */
export async function endTree(tree: ProcessTree): Promise<void> {
  kill(-tree.pid)
  if (!hasProc) return
  for (let round = 0; round < 5; round++) {
    const alive = selectTree(tree, await listProcessesAsync(tree.pid))
    if (alive.length === 0) return
    for (const pid of alive) kill(pid)
  }
}
