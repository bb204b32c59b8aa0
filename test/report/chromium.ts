// Headless Chromium for the report and live page tests: Debian's chromium driven by playwright-core.
// The browser tests never skip themselves: without Chromium they fail, saying how to install it
// (.ci/run installs Debian's chromium; CHROMIUM_PATH points elsewhere).
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Failed to start Chromium for the browser tests: ${CHROMIUM_PATH} does not exist. Please install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH to a Chromium binary.`)
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
