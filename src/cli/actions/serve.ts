// `relay-mock serve`'s work, loaded only when the command runs: start the mock over HTTP, print
// what to try, stop cleanly on SIGINT or SIGTERM.
import pc from 'picocolors'
import { formatFault, parseFaults } from '../../core/service/faults.js'
import { createRelayService } from '../../core/service/mock.js'
import { maskSecret } from '../../core/mask.js'
import { formatVariants } from '../../core/service/variants.js'
import {
  calibratedIds,
  describeCalibration,
  uncalibratedIds,
  type Calibration,
} from '../../core/service/calibration.js'
import { readCalibrationFile } from '../../node/files/calibration-file.js'
import { devtools } from '../../devtools/admin.js'
import type { World } from '../../core/service/world.js'
import { close, createServer, listen } from '../../node/server/server.js'
import { announceStarted } from '../../node/caches/code-cache.js'
import { createSeedCache } from '../../node/caches/seed-cache.js'
import { resolveScenario } from '../../node/files/user-files.js'
import { warnIfReachable } from '../usage.js'
import { reserveListening } from './listening.js'

export interface ServeOptions {
  port: number
  host: string
  token?: string[]
  /** A built-in scenario's name, or a path to a scenario file (.json, .js, .mjs, .ts, .mts). */
  scenario: string
  seed: number
  vehicles: number
  journalLimit: number
  journalBytes?: number
  worldRecords?: number
  maxWorlds?: number
  adminToken?: string
  latency?: number | [number, number]
  /** Faults as people write them: `POST /payments=reset:once`. */
  fault?: string[]
  /** Alternatives of the assumption ledger to serve: `create.status=200-no-location`. */
  variant?: string[]
  /** An assumptions report of proxy or probe: answer as the real service was seen to. */
  calibrate?: string
}

/**
 * Serves the mock until SIGINT or SIGTERM; resolves with 0 once it listens (a set-up error throws).
 * @example await serve({ port: 4010, host: '127.0.0.1', scenario: 'default', seed: 2026, vehicles: 24, journalLimit: 10000 })
 */
export async function serve(args: ServeOptions): Promise<number> {
  // The port first: a busy port or an unknown host is known before a world (seconds for a large fleet) is built.
  const reserved = await reserveListening(args.host, args.port)
  warnIfReachable('serve', args.host)
  const faults = parseFaults(args.fault, 'relay-mock serve')
  const calibrated = args.calibrate === undefined ? undefined : readCalibrationFile(args.calibrate)
  const service = await createRelayService({
    faults,
    ...(calibrated ? { calibration: calibrated.report } : {}),
    variants: args.variant,
    tokens: args.token,
    scenario: await resolveScenario(args.scenario),
    seed: args.seed,
    vehicles: args.vehicles,
    journalLimit: args.journalLimit,
    journalBytes: args.journalBytes,
    worldRecords: args.worldRecords,
    maxWorlds: args.maxWorlds,
    adminToken: args.adminToken,
    latency: args.latency,
    extensions: [devtools()],
    // The built-in scenarios' seeded worlds, kept between runs: a start reads its world instead of seeding it.
    seedCache: createSeedCache(),
  })
  const server = createServer(service)
  const baseUrl = await listen(server, { reserved })
  const stop = () => {
    console.log(pc.dim('\nStopping relay-mock.'))
    void close(server).then(() => process.exit(0))
  }
  // Listen for the signals before printing the banner: a script that waits for the banner and
  // then stops the server must not find the default handler (death by SIGINT) still in place.
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  console.log(
    banner(baseUrl, [...service.worlds.values()], args.latency, args.adminToken !== undefined, calibrated?.calibration),
  )
  announceStarted()
  return 0
}

function banner(
  baseUrl: string,
  worlds: World[],
  latency?: number | [number, number],
  admin = false,
  calibration?: Calibration,
): string {
  const [world] = worlds
  const { store, visit, hints } = world
  const lines = [
    '',
    `${pc.bold('relay-mock')} is serving the relay service at ${pc.cyan(baseUrl)}`,
    '',
    `  token       ${pc.green(world.token)}${
      worlds.length > 1
        ? pc.dim(
            `  (+${worlds.length - 1} more: ${worlds
              .slice(1)
              .map((w) => maskSecret(w.token))
              .join(', ')})`,
          )
        : ''
    }`,
    `  location    ${world.location.id}  ${pc.dim(world.location.name)}`,
    `  scenario    ${world.scenario.name}  ${pc.dim(world.scenario.description)}`,
    ...(world.variants
      ? [`  variants    ${formatVariants(world.variants)}  ${pc.dim('(each world; /__relay/variants to change)')}`]
      : []),
    ...(calibration ? calibrationLines(calibration) : []),
    ...(world.faults.length
      ? [
          `  faults      ${world.faults.map(formatFault).join(', ')}  ${pc.dim('(each world; /__relay/faults to change)')}`,
        ]
      : []),
    ...(latency
      ? [
          `  latency     ${Array.isArray(latency) ? `${latency[0]}–${latency[1]} ms` : `${latency} ms`} on every answer of the service`,
        ]
      : []),
    // The token rides in the fragment: a browser never sends it, so no server or proxy logs it.
    `  live page   ${pc.cyan(`${baseUrl}/__relay/#token=${encodeURIComponent(world.token)}`)}`,
    `  OpenAPI     ${pc.cyan(`${baseUrl}/openapi/advanced.json`)}, ${pc.cyan('/openapi/simple.json')}`,
    ...(admin ? [`  admin       the --admin-token sees every world (GET /__relay/worlds, ?world=<id>)`] : []),
    '',
    `  ${pc.bold('Rental companies')}                kennitala    plates`,
  ]
  for (const company of store.rentalCompanies.all()) {
    const plates = store.vehicles
      .all()
      .filter((v) => v.active && store.custodians.byVehicle(v.id).some((c) => c.rentalCompanyId === company.id))
      .map((v) => v.plate)
    const shown = plates.slice(0, 4).join(' ') + (plates.length > 4 ? pc.dim(` +${plates.length - 4}`) : '')
    lines.push(`  ${company.name.padEnd(31)} ${company.kennitala}   ${shown}`)
  }
  lines.push(
    `  ${pc.dim('not in the service:')}             ${hints.unknownKennitala}   ${pc.dim('unknown plate:')} ${hints.unknownPlate}`,
    '',
    `  ${pc.bold('Try')} (the scenario's visit: plate ${visit.plate}, owner ${visit.ownerKennitala}):`,
    `  curl -H 'Authorization: Bearer ${world.token}' '${baseUrl}/rental-companies?kennitala=${visit.ownerKennitala}'`,
    '',
    pc.dim('  Ctrl-C stops it.'),
  )
  return lines.join('\n')
}

/** The banner's lines on a calibration: against what, and what it serves as observed. */
export function calibrationLines(calibration: Calibration): string[] {
  const served = calibratedIds(calibration)
  const kept = uncalibratedIds(calibration)
  return [
    `  calibrated  against ${describeCalibration(calibration)}: ${served.length ? `answers as observed for ${served.join(', ')}` : "nothing contradicted there, relay-mock's choices stand"}`,
    ...(kept.length
      ? [
          pc.dim(
            `              contradicted there but served as relay-mock chose (calibration does not learn it): ${kept.join(', ')}`,
          ),
        ]
      : []),
  ]
}
