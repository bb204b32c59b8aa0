// `relay-mock proxy`'s work, loaded only when the command runs: forward the client's requests to the real
// service through the mock's pipeline (journal, dev tools, faults), hold the assumption ledger against
// its answers, and on exit write the report (and the recorded world) and set the exit status.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import pc from 'picocolors'
import { maskSecret } from '../../core/mask.js'
import { createAssumptionLedger, type AssumptionReport } from '../../core/ledger/report.js'
import { FAULT_KINDS, formatFault, parseFaults, type ArmedFault } from '../../core/service/faults.js'
import { createRelayService } from '../../core/service/mock.js'
import type { UpstreamObservation } from '../../core/service/upstream.js'
import { createWorldRecording, type WorldRecording } from '../../core/proxy/recording.js'
import { assumptionsPage, assumptionsTool } from '../../devtools/assumptions.js'
import { devtools } from '../../devtools/admin.js'
import { close, createServer, listen } from '../../node/server/server.js'
import { createForwarder } from '../../node/upstream/upstream.js'
import { warnIfReachable } from '../usage.js'
import { reserveListening } from './listening.js'

export interface ProxyOptions {
  upstream: string
  upstreamCa?: string
  /** Seconds. */
  upstreamTimeout: number
  port: number
  host: string
  journalLimit: number
  journalBytes?: number
  maxWorlds?: number
  adminToken?: string
  /** Faults as people write them: `POST /payments=reset:once`. */
  fault?: string[]
  reportDir?: string
  check?: boolean
  record?: string
}

/**
 * Proxies until SIGINT or SIGTERM, then writes what it was asked to and exits: 1 with `--check` when the
 * real service contradicted an assumption, else 0. Resolves with 0 once it listens (a set-up error throws).
 * @example await proxy({ upstream: 'https://staging.example', upstreamTimeout: 30, port: 4010, host: '127.0.0.1', journalLimit: 10000 })
 */
export async function proxy(args: ProxyOptions): Promise<number> {
  // The port first, as serve reserves it.
  const reserved = await reserveListening(args.host, args.port)
  warnIfReachable('proxy', args.host)
  const faults = parseFaults(args.fault, 'relay-mock proxy')
  const forwarder = createForwarder({
    baseUrl: args.upstream,
    ca: args.upstreamCa === undefined ? undefined : readFileSync(args.upstreamCa, 'utf8'),
    timeoutMs: args.upstreamTimeout * 1000,
  })
  const ledger = createAssumptionLedger(forwarder.baseUrl)
  const recording = args.record ? createWorldRecording(forwarder.baseUrl) : undefined
  const observe = (observation: UpstreamObservation) => {
    ledger.observe(observation)
    recording?.observe(observation)
  }
  const service = await createRelayService({
    // No world of its own at start: each real token the client sends gets one on first sight.
    tokens: [],
    faults,
    journalLimit: args.journalLimit,
    journalBytes: args.journalBytes,
    maxWorlds: args.maxWorlds,
    adminToken: args.adminToken,
    upstream: { baseUrl: forwarder.baseUrl, forward: forwarder.forward, observe },
    extensions: [devtools(), assumptionsTool(ledger)],
  })
  const server = createServer(service)
  const baseUrl = await listen(server, { reserved })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    console.log(pc.dim('\nStopping relay-mock proxy.'))
    const report = ledger.report()
    // A file it could not write is a failure of the run: the exit status says so, as a contradiction under --check does.
    let failed = false
    try {
      if (args.reportDir)
        writeReport(
          args.reportDir,
          report,
          [...service.worlds.values()].map((world) => world.token),
        )
    } catch (error) {
      failed = true
      console.error(
        pc.red(`relay-mock proxy: failed to write the report to ${args.reportDir}: ${(error as Error).message}`),
      )
    }
    console.log(summary(report, args.reportDir))
    if (recording && args.record && !record(recording, args.record)) failed = true
    const contradicted = report.assumptions.some((a) => a.status === 'contradicted')
    void close(server).then(() => {
      forwarder.close()
      process.exit(failed || (args.check && contradicted) ? 1 : 0)
    })
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  console.log(banner(baseUrl, forwarder.baseUrl, faults, args))
  return 0
}

/**
 * Writes the report as JSON and as a page. The tokens in `secrets` are masked wherever the service's
 * answers held them (an error that echoes the token it refused): the report is kept in repositories.
 */
export function writeReport(dir: string, report: AssumptionReport, secrets: ReadonlyArray<string> = []): void {
  let text = JSON.stringify(report, null, 2)
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join(maskSecret(secret))
  const masked = JSON.parse(text) as AssumptionReport
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'assumptions.json'), `${text}\n`)
  writeFileSync(join(dir, 'assumptions.html'), assumptionsPage(masked).value)
}

/** Writes the recorded world as a scenario file (its folder made if need be), and says what it holds and what it left out; false when it could not. */
function record(recording: WorldRecording, path: string): boolean {
  try {
    const { file, left } = recording.toScenarioFile()
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`)
    console.log(
      `${pc.bold('Recorded')} ${file.companies?.length ?? 0} rental companies, ${file.vehicles?.length ?? 0} vehicles and ${file.payments?.length ?? 0} payments to ${path}: relay-mock serve --scenario ${path}`,
    )
    if (left.length)
      console.log(
        pc.dim(
          `  left out, as a scenario file cannot hold them (an id not a UUID, a kennitala or plate relay-mock refuses, a payment whose vehicle was not seen): ${left.slice(0, 5).join(', ')}${left.length > 5 ? ` and ${left.length - 5} more` : ''}`,
        ),
      )
    return true
  } catch (error) {
    console.error(
      pc.red(`relay-mock proxy: failed to write the recorded world to ${path}: ${(error as Error).message}`),
    )
    return false
  }
}

/** The report in a few lines for the console. */
export function summary(report: AssumptionReport, dir?: string, whole = 'GET /__relay/assumptions'): string {
  const lines = [`${pc.bold('Assumptions')} against ${report.upstream} (${report.answers} answers):`]
  for (const a of report.assumptions) {
    const mark =
      a.status === 'contradicted'
        ? pc.red('✗ contradicted')
        : a.status === 'confirmed'
          ? pc.green('✓ confirmed   ')
          : pc.dim('· unseen      ')
    lines.push(
      `  ${mark} ${a.id}${a.evidence[0] && a.status === 'contradicted' ? pc.dim(`  came ${a.evidence[0].came} (seq ${a.evidence[0].seq})`) : ''}${a.unseen ? pc.dim(`  ${a.unseen}`) : ''}`,
    )
    for (const v of a.variants ?? []) {
      if (v.command)
        lines.push(
          pc.dim(`      then run: ${v.command}${v.notVaried ? ` (conform has no cases for it: ${v.notVaried})` : ''}`),
        )
      else if (v.notServed ?? v.notVaried)
        lines.push(pc.dim(`      no variant cases to run: ${v.notServed ?? v.notVaried}`))
    }
  }
  if (report.findings.length) {
    lines.push(
      `  ${report.findings.length} findings: answers that depart from the interface or upstream trouble (${whole} has them all):`,
    )
    for (const finding of report.findings.slice(0, 5)) lines.push(pc.dim(`    ${finding.kind}: ${finding.message}`))
  }
  if (dir) lines.push(pc.dim(`  written to ${join(dir, 'assumptions.json')} and assumptions.html`))
  return lines.join('\n')
}

function banner(baseUrl: string, upstream: string, faults: ReadonlyArray<ArmedFault>, args: ProxyOptions): string {
  // The armed kinds that strike after the service applied the request (FAULT_KINDS says which).
  const applied = [...new Set(faults.map((fault) => fault.kind))].filter((kind) => FAULT_KINDS[kind].applied)
  return [
    '',
    `${pc.bold('relay-mock proxy')} is forwarding ${pc.cyan(baseUrl)} to ${pc.cyan(upstream)}`,
    '',
    `  token       your client's own: relay-mock adds none, forwards it as sent, and masks it in everything it shows`,
    `  live page   ${pc.cyan(`${baseUrl}/__relay/#token=<your token>`)}`,
    `  assumptions ${pc.cyan(`${baseUrl}/__relay/assumptions`)} (with your token), and on exit on this console${args.reportDir ? ` and in ${args.reportDir}` : ''}`,
    ...(faults.length
      ? [
          `  faults      ${faults.map(formatFault).join(', ')}`,
          pc.yellow(
            applied.length
              ? `  warning     these faults strike REAL requests: ${listed(applied)} ${applied.length === 1 ? 'comes' : 'come'} after the real service applied the request,`
              : "  warning     these faults strike REAL requests: they answer in the real service's place, without forwarding,",
          ),
          pc.yellow(
            applied.length
              ? `              so a client that sends it again makes the very duplicate they test for. Never arm them against production.`
              : `              so your client sees them and the real service does not. Never arm faults against production.`,
          ),
        ]
      : []),
    ...(args.record ? [`  record      the records the upstream reveals go to ${args.record} on exit`] : []),
    ...(args.check ? ['  --check     the exit status is 1 if the real service contradicts an assumption'] : []),
    '',
    pc.dim('  Ctrl-C stops it and writes the report.'),
  ].join('\n')
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: ReadonlyArray<string>): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}
