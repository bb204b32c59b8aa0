// Headless Chromium for the report and live page tests: Chrome or Chromium driven by playwright-core.
// scripts/test-prerequisites.mjs finds it (CHROMIUM_PATH, PATH, where each system installs it, Playwright's
// cache) and hands it over as CHROMIUM_PATH, or stops the run saying what to install: the browser tests
// never skip themselves.
import { chromium, type Browser } from 'playwright-core'

export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH
  if (!executablePath) {
    throw new Error('Failed to start Chromium for the browser tests: CHROMIUM_PATH is not set. Please run the tests with npm test or vitest (scripts/test-prerequisites.mjs finds Chrome or Chromium first), or set CHROMIUM_PATH to a Chrome or Chromium binary.')
  }
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
