// The options more than one command takes, declared once: where a server listens (`serve`, `proxy`), the
// real service (`proxy`, `probe`) and the journal's bounds (`serve`, `proxy`).
import type { Argv, Options } from 'yargs'
import { MOCK_DEFAULTS } from '../../core/defaults.js'
import { checked, host, journalBytes, journalLimit, port, readableFile, upstreamUrl } from '../checks.js'

/** --port and --host. */
export function listenOptions(y: Argv): Argv {
  return y
    .option(
      'port',
      checked('port', port, { alias: 'p', default: 4010, describe: 'Port to listen on (0 picks a free one)' }),
    )
    .option(
      'host',
      checked('host', host, {
        default: '127.0.0.1',
        describe: 'Address to listen on (any but loopback opens the admin API to the network)',
      }),
    )
}

/** --upstream: the real service's base URL. */
export const upstreamOption = (): Options =>
  checked('upstream', upstreamUrl, {
    demandOption: true,
    describe: 'Base URL of the real service (or its staging), http:// or https://',
  })

/** --upstream-ca: the CA that signed the real service's certificate. */
export const upstreamCaOption = (): Options =>
  checked('upstream-ca', readableFile, {
    describe: "A PEM file of the CA that signed the upstream's certificate (a private CA), added to Node's own",
  })

/** --journal-limit: how many requests a world's journal keeps. */
export const journalLimitOption = (): Options =>
  checked('journal-limit', journalLimit, {
    default: MOCK_DEFAULTS.journalLimit,
    describe: 'How many requests the journal keeps',
  })

/** --journal-bytes: how many bytes of requests a world's journal holds. */
export const journalBytesOption = (): Options =>
  checked('journal-bytes', journalBytes, {
    default: MOCK_DEFAULTS.journalBytes,
    describe: 'How many bytes the journal may hold (the oldest requests are dropped beyond)',
  })
