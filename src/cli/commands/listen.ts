// The options of where a server listens, which `serve` and `proxy` share.
import type { Argv } from 'yargs'
import { checked, host, port } from '../checks.js'

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
