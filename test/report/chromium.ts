// Headless Chromium for the report and live page tests: Debian's chromium driven by playwright-core.
// Without it the browser tests skip with a message, except under CI, where its absence fails them.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const chromiumPresent = existsSync(CHROMIUM_PATH)
/** Skip only when Chromium is really absent and this is not CI (.ci/run installs it). */
export const skipBrowser = !chromiumPresent && !process.env.CI

if (skipBrowser) {
  console.warn(`Skipping the browser tests: no Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; under CI its absence fails them.`)
}

export function launchChromium(): Promise<Browser> {
  if (!chromiumPresent) throw new Error(`Failed to start Chromium: ${CHROMIUM_PATH} does not exist. Please install it (apt-get install -y chromium) or set CHROMIUM_PATH.`)
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
