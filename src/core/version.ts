// relay-mock's own version, for the HAR creator and the live page: read from package.json at build time
// (a JSON import, so the core still needs nothing from Node).
import pkg from '../../package.json' with { type: 'json' }

/** The package's version, e.g. `0.1.0`. */
export const RELAY_MOCK_VERSION: string = pkg.version
