// `relay-mock proxy`: its options; the work is in ../actions/proxy.ts, loaded only when it runs.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { MOCK_DEFAULTS } from '../../core/defaults.js'
import type { ProxyOptions } from '../actions/proxy.js'
import { checked, declared, maxWorlds, seconds, text, token, writableFile, writableFolder } from '../checks.js'
import { exitWith } from '../exit.js'
import {
  journalBytesOption,
  journalLimitOption,
  listenOptions,
  upstreamCaOption,
  upstreamOption,
} from './shared-options.js'

type ProxyArgs = ProxyOptions

export const proxyCommand: CommandModule<object, ProxyArgs> = {
  command: 'proxy',
  describe:
    "Forward a client's requests to the real service, journal them, and check its answers against relay-mock's assumptions",
  builder: (y: Argv) =>
    declared<ProxyArgs>(reportOptions(worldOptions(listenOptions(upstreamOptions(y)))))
      .example(
        '$0 proxy --upstream https://staging.example.com --report-dir relay-report',
        'Point your client at http://127.0.0.1:4010 with its real token',
      )
      .check(async (args) => {
        const { checkProxy } = await import('../actions/proxy-checks.js')
        checkProxy(args)
        return true
      }),
  async handler(args: ArgumentsCamelCase<ProxyArgs>) {
    const { proxy } = await import('../actions/proxy.js')
    await exitWith(() => proxy(args))
  },
}

/** The real service: where it is, the CA that signed its certificate, how long it may take. */
function upstreamOptions(y: Argv): Argv {
  return y
    .option('upstream', upstreamOption())
    .option('upstream-ca', upstreamCaOption())
    .option(
      'upstream-timeout',
      checked('upstream-timeout', seconds({ max: 600 }), {
        default: 30,
        describe: 'Seconds the upstream may take to answer before the client gets a 504',
      }),
    )
}

/** The proxy's own worlds: their journals' bounds, how many, the admin token, and faults on real traffic. */
function worldOptions(y: Argv): Argv {
  return y
    .option('journal-limit', journalLimitOption())
    .option('journal-bytes', journalBytesOption())
    .option(
      'max-worlds',
      checked('max-worlds', maxWorlds, {
        default: MOCK_DEFAULTS.maxWorlds,
        describe: "How many tokens' worlds the proxy keeps (the longest unused go first beyond)",
      }),
    )
    .option(
      'admin-token',
      checked('admin-token', token, {
        describe:
          'A token whose holder sees every world (GET /__relay/worlds, ?world=<id>, ?scope=all); never forwarded',
      }),
    )
    .option(
      'fault',
      checked('fault', text, {
        repeatable: true,
        describe:
          'Break one request of the flows on real traffic: <route>=<kind>[:once]; reset, hang, truncated and garbage strike after the real service applied the request',
      }),
    )
}

/** What the proxy writes on exit, and whether a contradiction fails it. */
function reportOptions(y: Argv): Argv {
  return y
    .option(
      'report-dir',
      checked('report-dir', writableFolder, {
        describe: 'Write the assumption report there on exit, as assumptions.json and assumptions.html',
      }),
    )
    .option('check', {
      type: 'boolean',
      default: false,
      describe: 'Exit with status 1 when the real service contradicted an assumption',
    })
    .option(
      'record',
      checked('record', writableFile, {
        describe:
          'On exit, write the records the upstream revealed as a scenario file (serve --scenario FILE loads it); no token or header is written',
      }),
    )
}
