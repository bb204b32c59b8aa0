// Headless Chromium for the report and live page tests: Chrome or Chromium driven by playwright-core.
// needs('chromium') (test/support/needs.ts) finds it (CHROMIUM_PATH, PATH, where each system installs it,
// Playwright's cache) and hands it over as CHROMIUM_PATH, or fails the file saying what to install: the
// browser tests never skip themselves.
import { chromium, type Browser } from 'playwright-core'

export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH
  if (!executablePath) {
    throw new Error(
      "Failed to start Chromium for the browser tests: CHROMIUM_PATH is not set. Please call needs('chromium') (test/support/needs.ts) in the test file first, or set CHROMIUM_PATH to a Chrome or Chromium binary.",
    )
  }
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
