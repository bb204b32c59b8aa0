// relay-mock's own version, for the CLI, the reports, the HAR creator and the live page. package.json is
// the one version source: scripts/assets.mjs writes its version into version.generated.ts (before tsc,
// and before the tests), so that neither dist nor the bundles carry the manifest itself.
import { PACKAGE_VERSION } from './version.generated.js'

/**
 * The package's version, e.g. `0.1.0`.
 * @example `relay-mock ${RELAY_MOCK_VERSION}` // 'relay-mock 0.1.0'
 */
export const RELAY_MOCK_VERSION: string = PACKAGE_VERSION
