// The package's three entries export what their audience needs and no more: each list is pinned, so a
// new export is a deliberate change (and an internal one shows here), and the entry's docs page names each.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const page = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

describe('the entries export what their audience needs, named in their docs page', () => {
  it("'relay-mock': the in-process mock, its parts, scenarios and faults", async () => {
    expect(Object.keys(await import('../../src/index.js')).sort()).toEqual([
      'FAULT_KINDS',
      'FAULT_STEPS',
      'RelayMockError',
      'companyKennitala',
      'createRelayMock',
      'createRelayService',
      'defineScenario',
      'devtools',
      'formatFault',
      'isCompanyKennitala',
      'isValidKennitala',
      'parseFault',
      'parseScenarioFile',
      'scenarios',
      'toHandlers',
      'toOpenApi',
      'toScenario',
    ])
  })

  it("'relay-mock/node': the server, the runner, the rules, the reporters, HAR and your files", async () => {
    expect(Object.keys(await import('../../src/node.js')).sort()).toEqual([
      'cases',
      'close',
      'createConsoleReporter',
      'createGitHubReporter',
      'createHarReporter',
      'createHtmlReporter',
      'createJsonReporter',
      'createJunitReporter',
      'createReferenceClient',
      'createServer',
      'defineRule',
      'defineSuite',
      'evaluate',
      'expectedCalls',
      'fromHar',
      'listen',
      'loadCases',
      'loadScenario',
      'referenceClient',
      'reporters',
      'resolveScenario',
      'ruleById',
      'rules',
      'runClientProcess',
      'runConformance',
      'suites',
      'toClientReport',
      'toGitHubAnnotations',
      'toHar',
      'toHtmlReport',
      'toJUnitXml',
      'toJsonReport',
      'toRuleTable',
      'toRunHar',
    ])
  })

  it("'relay-mock/vitest': the vitest helper alone", async () => {
    expect(Object.keys(await import('../../src/vitest.js')).sort()).toEqual(['defineConformanceTests'])
  })

  it.each([
    ['relay-mock', 'docs/in-process.md', () => import('../../src/index.js')],
    ['relay-mock/node', 'docs/conformance-in-js.md', () => import('../../src/node.js')],
    ['relay-mock/vitest', 'docs/conformance-in-js.md', () => import('../../src/vitest.js')],
  ])('the docs name every export of %s (%s)', async (_, path, entry) => {
    const text = page(path)
    const unnamed = Object.keys(await entry()).filter(
      (name) => !text.includes(`\`${name}\``) && !text.includes(`\`${name}(`),
    )
    expect(unnamed).toEqual([])
  })
})
