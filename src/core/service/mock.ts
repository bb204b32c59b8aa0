// The mock service, composed of its parts: its scenarios (scenarios.ts), its worlds by token
// (worlds.ts), the dev tools mounted on it (extensions.ts), and the one request pipeline that both
// transports call (pipeline.ts, which journals through recorder.ts). The door the rest of the package
// imports the service by; its types are in service.ts.
import { MOCK_DEFAULTS } from '../defaults.js'
import { createExtensions } from './extensions.js'
import { createJournal } from './journal.js'
import { createPipeline } from './pipeline.js'
import { createScenarios } from './scenarios.js'
import type { RelayService, RelayServiceOptions, RelayServiceSettings } from './service.js'
import type { World } from './world.js'
import { toVariants } from './variants.js'
import { calibrationVariants, readCalibration } from './calibration.js'
import { createWorlds } from './worlds.js'

export type {
  ExtensionRefusals,
  RelayRequest,
  RelayResponse,
  RelayService,
  RelayServiceOptions,
  RelayServiceSettings,
  SeedCache,
  ServiceExtension,
} from './service.js'
export { RelayMockError } from '../errors.js'

/**
 * Creates the mock service: one world per token, all seeded from the named scenario.
 * @example
 * const mock = await createRelayService({ scenario: 'new-vehicle' })
 * const answer = await mock.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: 'Bearer relay-mock-token' } })
 */
export async function createRelayService(options: RelayServiceOptions = {}): Promise<RelayService> {
  const {
    extensions: mounted = [],
    scenarios: ownScenarios = [],
    seedCache,
    variants,
    upstream,
    calibration: report,
    ...rest
  } = options
  const calibration = report === undefined ? undefined : readCalibration(report, 'given')
  // The choices a handler makes under the calibration are variants of every world (a world's own variants come on top).
  const read = {
    ...(calibration ? calibrationVariants(calibration) : {}),
    ...(variants === undefined ? {} : toVariants(variants)),
  }
  const settings: RelayServiceSettings = {
    ...MOCK_DEFAULTS,
    ...withoutUndefined(rest),
    variants: Object.keys(read).length > 0 ? Object.freeze(read) : undefined,
    calibration,
  }
  const scenarios = createScenarios({ settings, own: ownScenarios, seedCache })
  const worlds = createWorlds({ settings, scenarios })
  // A world's journal holds a subset of the whole journal's entries: what the whole one drops, the world's
  // drops too, so the byte cap bounds every journal's memory at once.
  const journal = createJournal({
    limit: settings.journalLimit,
    maxBytes: settings.journalBytes,
    onDrop: (entry) => {
      if (entry.worldId !== null) worlds.byId.get(entry.worldId)?.journal.dropThrough(entry.seq)
    },
  })
  const extensions = createExtensions({ settings, worlds })
  const { answer, handle, preflight } = createPipeline({ settings, worlds, journal, extensions, upstream })

  for (const token of settings.tokens) await worlds.add({ token })

  const mock: RelayService = {
    settings,
    ...(upstream ? { upstream: upstream.baseUrl } : {}),
    worlds: worlds.byToken,
    get world(): World {
      return worlds.first()
    },
    journal,
    scenarios: scenarios.known,
    addWorld: (...args) => worlds.add(...args),
    async resetWorld(world, scenario) {
      await worlds.reset(world, scenario)
      for (const extension of extensions.mounted) extension.onReset?.(world)
      return world
    },
    removeWorld: (...args) => worlds.remove(...args),
    handle,
    answer,
    preflight,
    use(extension) {
      extensions.use(extension, mock)
      return mock
    },
  }
  for (const extension of mounted) mock.use(extension)
  return mock
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
