// The layers point down only: core (the domain and the protocol) < devtools (admin API, live page,
// diagrams, HAR) < node (server, runner, reporters, each in a folder of its own) < the entries (src/index.ts, src/node.ts,
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
      comment:
        'The core (schemas, store, worlds, route table, rules, the protocol) imports nothing of the dev tools, Node, or the CLI.',
      from: { path: '^src/core/' },
      to: { path: `^src/((devtools|node|cli)/|${ENTRIES})` },
    },
    {
      name: 'core-is-runtime-neutral',
      severity: 'error',
      comment:
        'The core, the dev tools and the runtime-neutral entry (src/index.ts, which mounts the dev tools in-process under msw) speak plain data and Fetch: no node:* module.',
      from: { path: '^src/(core/|devtools/|index\\.ts$)' },
      to: { dependencyTypes: ['core'] },
    },
    // Inside the core, by concern (each folder's README.md says what lives there and what it may import):
    // the shared basics at its top < service/ < exchange/ < ledger/, rules/ < openapi/, proxy/
    // (exchange/answer.ts, which imports no folder, sits with the basics: the service reads it).
    {
      name: 'core-basics-import-no-folder',
      severity: 'error',
      comment:
        "The core's top files are the shared basics (errors, text, masking, randomness): they import none of the core's folders.",
      from: { path: '^src/core/[^/]+\\.ts$' },
      to: { path: '^src/core/[^/]+/' },
    },
    {
      name: 'service-below-the-kit',
      severity: 'error',
      comment:
        "The service (schemas, store, worlds, handlers, protocol, pipeline) knows nothing of the rules, the ledger's checks, the OpenAPI documents or the proxy's recording; of the ledger it reads only the declarations (ledger/assumptions.ts, plain data), to serve their alternatives.",
      from: { path: '^src/core/service/' },
      to: { path: '^src/core/(rules/|openapi/|proxy/|ledger/(?!assumptions\\.ts$)|exchange/(?!answer\\.ts$))' },
    },
    {
      name: 'exchange-answer-is-a-basic',
      severity: 'error',
      comment:
        "exchange/answer.ts (an answer's status class, Retry-After, records) is plain values: it imports none of the core's folders, so that the service may read it.",
      from: { path: '^src/core/exchange/answer\\.ts$' },
      to: { path: '^src/core/[^/]+/' },
    },
    {
      name: 'exchange-reads-the-facts',
      severity: 'error',
      comment:
        "What an exchange says is read from the service's facts (schemas, protocol, faults, the journal's types), never its state, and from none of the layers that read the exchange (the ledger, the rules, the OpenAPI documents, the proxy).",
      from: { path: '^src/core/exchange/' },
      to: {
        path: '^src/core/(service/(store|seed|scenarios|world|worlds|pipeline|mock|msw|recorder|forward|extensions|reads|calibration)\\.ts$|ledger/|rules/|openapi/|proxy/)',
      },
    },
    {
      name: 'rules-judge-the-journal',
      severity: 'error',
      comment:
        "The rules are pure functions of the journal: they read the service's facts (schemas, protocol, faults, the journal's types), never its state (store, worlds, pipeline), the ledger's checks, the OpenAPI documents or the proxy.",
      from: { path: '^src/core/rules/' },
      to: {
        path: '^src/core/(service/(store|seed|scenarios|world|worlds|pipeline|mock|msw|recorder|forward|extensions|reads)\\.ts$|ledger/(?!assumptions\\.ts$)|openapi/|proxy/)',
      },
    },
    {
      name: 'ledger-knows-no-proxy',
      severity: 'error',
      comment:
        "The ledger (declarations, checks, report, docs) judges answers handed to it: it imports neither the proxy's recording, the OpenAPI documents, the rules, nor the service's state and pipeline.",
      from: { path: '^src/core/ledger/' },
      to: {
        path: '^src/core/(proxy/|openapi/|rules/|service/(store|seed|scenarios|world|worlds|pipeline|mock|msw|recorder|forward|extensions)\\.ts$)',
      },
    },
    {
      name: 'openapi-and-proxy-at-the-top',
      severity: 'error',
      comment:
        "The OpenAPI documents and the proxy's recording read the service and the ledger; neither imports the other, nor the rules.",
      from: { path: '^src/core/(openapi|proxy)/' },
      to: { path: '^src/core/rules/' },
    },
    {
      name: 'openapi-apart-from-proxy',
      severity: 'error',
      from: { path: '^src/core/openapi/' },
      to: { path: '^src/core/proxy/' },
    },
    {
      name: 'proxy-apart-from-openapi',
      severity: 'error',
      from: { path: '^src/core/proxy/' },
      to: { path: '^src/core/openapi/' },
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
    // Inside the Node layer, by concern (each folder's README.md says what lives there and what it may import):
    // server/, upstream/, caches/, processes/, files/, reporters/ stand alone; runner/ runs clients
    // (processes/) against listeners (server/); reference-client/ speaks the runner's client contract.
    {
      name: 'node-folders-stand-alone',
      severity: 'error',
      comment:
        "The server, the upstream, the caches, the client processes, the user files and the reporters import none of the Node layer's other folders (the CLI puts them together), so that serve loads no part of the conformance kit and each changes alone.",
      from: { path: '^src/node/(server|upstream|caches|processes|files|reporters)/' },
      to: { path: '^src/node/', pathNot: '^src/node/$1/' },
    },
    {
      name: 'runner-runs-clients-on-listeners',
      severity: 'error',
      comment:
        'The conformance runner reads, of the Node layer, only the server (a listener per case) and the client processes: reporters are handed to it, user files are read by the CLI, and the reference client is one of its clients.',
      from: { path: '^src/node/runner/' },
      to: { path: '^src/node/', pathNot: '^src/node/(runner|server|processes)/' },
    },
    {
      name: 'reference-client-speaks-the-contract',
      severity: 'error',
      comment:
        'The reference client is a client like any other: of the Node layer it reads only the client contract (runner/contract.ts), the visit and the RELAY_* variables.',
      from: { path: '^src/node/reference-client/' },
      to: { path: '^src/node/', pathNot: '^src/node/(reference-client/|runner/contract\\.ts$)' },
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
      comment:
        'What serve starts with (its action and what that imports, statically) holds nothing of the conformance kit: its cases, reporters and runner cost start-up time and serve never uses them.',
      from: { path: '^src/cli/actions/serve\\.ts$' },
      to: {
        path: '^(suites/|src/node/(reporters/|runner/|files/user-cases\\.ts|processes/client-process\\.ts))',
        reachable: true,
      },
    },
    {
      name: 'serve-loads-no-compare',
      severity: 'error',
      comment:
        'Nor anything of compare: the comparison and the OpenAPI reader (which imports the validator) load only when compare runs.',
      from: { path: '^src/cli/actions/serve\\.ts$' },
      to: { path: '^src/(core/openapi/compare\\.ts$|node/files/openapi-source(\\.ts$|/))', reachable: true },
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
