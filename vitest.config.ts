import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The browser assets (src/**/*.css, *.js) as TypeScript modules, written afresh: see scripts/assets.mjs.
    // Then what the tests need beyond npm (a browser, python3's modules, jq, curl, java), found and handed to
    // the tests, or the run stops saying what is missing: see scripts/test-prerequisites.mjs.
    globalSetup: ['scripts/assets.mjs', 'scripts/test-prerequisites.mjs'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scenarios/**/*.test.ts', 'suites/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
