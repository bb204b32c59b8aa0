// `relay-mock probe`'s work, loaded only when the command runs: send the probe's requests to the real
// service through the proxy's own pipeline (so that the journal and the ledger's checks see them as they
// see a proxied client's), at a steady pace, then write the same report as `relay-mock proxy` and set
// the exit status.
import { readFileSync } from 'node:fs'
import pc from 'picocolors'
import { createAssumptionLedger, type AssumptionReport } from '../../core/ledger/report.js'
import { maskSecret } from '../../core/mask.js'
import { explainUnseen, probe, PROBE_MAX_REQUESTS, PROBE_TEST_PLATE } from '../../core/proxy/probe.js'
import { createRelayService } from '../../core/service/mock.js'
import { createForwarder } from '../../node/upstream/upstream.js'
import { summary, writeReport } from './proxy.js'

export interface ProbeArgs {
  upstream: string
  token: string
  upstreamCa?: string
  /** Seconds. */
  upstreamTimeout: number
  /** Milliseconds between one answer and the next request. */
  pace: number
  kennitala?: string
  plate?: string
  location?: string
  testPlate?: string
  allowWrites?: boolean
  reportDir?: string
  check?: boolean
}

/**
 * Probes the upstream, prints the report and writes it: 1 with `--check` when the service contradicted
 * an assumption (or the report could not be written), else 0.
 * @example await runProbe({ upstream: 'https://staging.example', token: 'T', upstreamTimeout: 30, pace: 100 })
 */
export async function runProbe(args: ProbeArgs): Promise<number> {
  const forwarder = createForwarder({
    baseUrl: args.upstream,
    ca: args.upstreamCa === undefined ? undefined : readFileSync(args.upstreamCa, 'utf8'),
    timeoutMs: args.upstreamTimeout * 1000,
  })
  const ledger = createAssumptionLedger(forwarder.baseUrl)
  const service = await createRelayService({
    tokens: [],
    upstream: { baseUrl: forwarder.baseUrl, forward: forwarder.forward, observe: ledger.observe },
  })
  console.log(banner(forwarder.baseUrl, args))
  const started = performance.now()
  let last = 0
  const result = await probe(
    async (request) => {
      // A steady pace: at least `pace` ms from one request's start to the next's.
      const wait = last + args.pace - performance.now()
      if (last > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      last = performance.now()
      return service.handle(request)
    },
    { token: args.token, ...pick(args) },
  )
  forwarder.close()
  const durationMs = Math.round(performance.now() - started)
  const report: AssumptionReport = {
    ...explainUnseen(ledger.report(), { ...args, ...(result.stopped ? { stopped: result.stopped } : {}) }),
    probe: {
      sent: result.sent,
      durationMs,
      allowWrites: args.allowWrites === true,
      written: result.written,
      skipped: result.skipped,
      ...(result.stopped ? { stopped: result.stopped } : {}),
    },
  }
  let failed = false
  try {
    if (args.reportDir) writeReport(args.reportDir, report, [args.token])
  } catch (error) {
    failed = true
    console.error(
      pc.red(`relay-mock probe: failed to write the report to ${args.reportDir}: ${(error as Error).message}`),
    )
  }
  console.log(summary(report, args.reportDir, 'the report'))
  console.log(
    `${pc.bold('Probe')}: ${result.sent} requests in ${(durationMs / 1000).toFixed(1)} s.${result.stopped ? pc.yellow(` Stopped early: ${result.stopped}.`) : ''}`,
  )
  if (args.allowWrites) {
    console.log(
      result.written.length
        ? `${pc.bold('Wrote')} on ${forwarder.baseUrl}:`
        : `${pc.bold('Wrote')} nothing on ${forwarder.baseUrl}.`,
    )
    for (const written of result.written) console.log(`  a ${written.kind} ${written.id} (${written.request})`)
  }
  for (const skipped of result.skipped) console.log(pc.dim(`  left out: ${skipped}`))
  const contradicted = report.assumptions.some((a) => a.status === 'contradicted')
  return failed || (args.check && contradicted) ? 1 : 0
}

function pick(args: ProbeArgs) {
  return {
    ...(args.kennitala ? { kennitala: args.kennitala } : {}),
    ...(args.plate ? { plate: args.plate } : {}),
    ...(args.location ? { location: args.location } : {}),
    ...(args.testPlate ? { testPlate: args.testPlate } : {}),
    allowWrites: args.allowWrites === true,
  }
}

function banner(upstream: string, args: ProbeArgs): string {
  return [
    '',
    `${pc.bold('relay-mock probe')} is asking ${pc.cyan(upstream)} with the token ${maskSecret(args.token)}: at most ${PROBE_MAX_REQUESTS} requests, one every ${args.pace} ms or more`,
    args.allowWrites
      ? pc.yellow(
          `  --allow-writes: this WRITES REAL RECORDS on ${upstream}: at most one vehicle (plate ${args.testPlate ?? PROBE_TEST_PLATE}), one custodian, one payment and one simple payment of 1 ISK.\n  Use it against a staging service only, never against production. What it wrote is listed at the end.`,
        )
      : '  no request it sends leaves a record: lookups, and requests the service refuses (--allow-writes adds the few creates, for staging only)',
    '',
  ].join('\n')
}
