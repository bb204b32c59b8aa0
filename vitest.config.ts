import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The browser assets (src/**/*.css, *.js) as TypeScript modules, written afresh: see scripts/assets.mjs.
    globalSetup: ['scripts/assets.mjs'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scenarios/**/*.test.ts', 'suites/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
