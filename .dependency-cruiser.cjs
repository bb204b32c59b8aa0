// The layers point down only: core (the domain and the protocol) < devtools (admin API, live page,
// diagrams, HAR) < node (server, runner, reporters) < the entries (src/index.ts, src/node.ts,
// src/vitest.ts: one per audience) and cli. `npm test` runs this check.

/** The top of the tree: the CLI and the package's entry files, which nothing below them imports. */
const ENTRIES = '(index|node|vitest)\\.ts$'
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle ties modules together so that neither can change alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-tools',
      severity: 'error',
      comment: 'The core (schemas, store, worlds, route table, rules, the protocol) imports nothing of the dev tools, Node, or the CLI.',
      from: { path: '^src/core/' },
      to: { path: `^src/((devtools|node|cli)/|${ENTRIES})` },
    },
    {
      name: 'core-is-runtime-neutral',
      severity: 'error',
      comment: 'The core, the dev tools and the runtime-neutral entry (src/index.ts, which mounts the dev tools in-process under msw) speak plain data and Fetch: no node:* module.',
      from: { path: '^src/(core/|devtools/|index\\.ts$)' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'devtools-above-core-only',
      severity: 'error',
      comment: 'The dev tools plug into the core; they know nothing of the Node layer or the CLI.',
      from: { path: '^src/devtools/' },
      to: { path: `^src/((node|cli)/|${ENTRIES})` },
    },
    {
      name: 'node-below-cli',
      severity: 'error',
      comment: 'The Node layer (server, runner, reporters) is used by the CLI and the entries, never the reverse.',
      from: { path: '^src/node/' },
      to: { path: `^src/(cli/|${ENTRIES})` },
    },
    {
      name: 'scenarios-and-suites-are-data',
      severity: 'error',
      comment: 'Scenarios and suites use the core only.',
      from: { path: '^(scenarios|suites)/' },
      to: { path: `^src/((devtools|node|cli)/|${ENTRIES})` },
    },
    {
      name: 'serve-loads-no-conformance-kit',
      severity: 'error',
      comment: 'What serve starts with (its action and what that imports, statically) holds nothing of the conformance kit: its cases, reporters and runner cost start-up time and serve never uses them.',
      from: { path: '^src/cli/actions/serve\\.ts$' },
      to: { path: '^(suites/|src/node/(reporters/|runner\\.ts|user-cases\\.ts|client-process\\.ts))', reachable: true },
    },
    {
      name: 'serve-loads-no-compare',
      severity: 'error',
      comment: "Nor anything of compare: the comparison and the OpenAPI reader (which imports the validator) load only when compare runs.",
      from: { path: '^src/cli/actions/serve\\.ts$' },
      to: { path: '^src/(core/compare|node/openapi-source)\\.ts$', reachable: true },
    },
    {
      name: 'no-benchmark-in-product',
      severity: 'error',
      from: { path: '^(src|scenarios|suites)/' },
      to: { path: '^bench/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
}
