// The proof that the kit tells the truth: for every rule, a client with one deliberate defect that
// the kit fails naming that rule, and only the rules the defect really breaks.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { RETRY_AFTER_SECONDS } from '../../src/core/service/faults.js'
import { rules } from '../../src/core/rules/index.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'
import { lenientClient } from './clients/lenient.js'
import { withEdits } from '../support/edits.js'
import { needs } from '../support/needs.js'

// The shell and Python examples, broken.
needs('curl', 'jq', 'python3', 'urllib3')

const DEFECTIVE = 'node test/conform/clients/defective.mjs'
let variants: string

/** A copy of an example client with one line changed (or a few); fails loudly if a line is no longer there. */
async function variant(example: string, name: string, ...changes: [from: string, to: string][]): Promise<string> {
  const file = join(variants, name)
  await writeFile(file, withEdits(example, await readFile(example, 'utf8'), name, changes))
  return file
}

beforeAll(async () => {
  variants = await mkdtemp(join(os.tmpdir(), 'relay-mock-variants-'))
})
afterAll(async () => {
  await rm(variants, { recursive: true, force: true })
})

type Client = string | ClientFunction | (() => Promise<string>)

interface Broken {
  /** What the client gets wrong. */
  defect: string
  client: Client
  case: string
  /** Exactly the rules it breaks in that case. */
  breaks: string[]
  timeoutMs?: number
  /** The run also ended this way. */
  timedOut?: boolean
}

const fn = (defect: string): ClientFunction => createDefectiveClient(defect) as ClientFunction
/** The defective client with its own list of the rental companies: those of the seeded world, so the unknown owner is not on it. */
const staleOwnerList = (async () => {
  const service = await createRelayService({ tokens: [] })
  const world = await service.addWorld({ scenario: 'existing-vehicle' })
  return createDefectiveClient('stale-owner-list', {
    RELAY_REGISTERED_OWNERS: world.store.rentalCompanies
      .all()
      .map((company) => company.kennitala)
      .join(','),
  })
}) as unknown as () => Promise<string>
const shell = (name: string, from: string, to: string) => async () =>
  `bash ${await variant('examples/clients/shell/client.sh', name, [from, to])}`
const python = (name: string, from: string, to: string) => async () =>
  `python3 ${await variant('examples/clients/python/client.py', name, [from, to])}`
// The example retries a 503 after its Retry-After, which gets past the one failure these cases inject.
const shellNoRetry = (name: string, from: string, to: string) => async () =>
  `bash ${await variant('examples/clients/shell/client.sh', name, ['MAX_ATTEMPTS=3', 'MAX_ATTEMPTS=1'], [from, to])}`

const broken: Broken[] = [
  // auth.bearer
  {
    defect: 'sends no Authorization header (shell)',
    client: shell('no-auth.sh', '-H "Authorization: Bearer $RELAY_API_TOKEN")', ')'),
    case: 'advanced/new-vehicle',
    breaks: ['auth.bearer'],
  },
  {
    defect: 'sends another token (process)',
    client: `${DEFECTIVE} wrong-token`,
    case: 'advanced/existing-vehicle',
    breaks: ['auth.bearer'],
  },
  {
    defect: 'sends no Authorization header (simple)',
    client: fn('no-auth'),
    case: 'simple/accepted',
    breaks: ['auth.bearer'],
  },
  // http.json-body
  {
    defect: 'sends its JSON as text/plain (python)',
    client: python(
      'text-plain.py',
      'headers["Content-Type"] = "application/json"',
      'headers["Content-Type"] = "text/plain"',
    ),
    case: 'advanced/new-vehicle',
    breaks: ['http.json-body'],
  },
  {
    defect: 'sends a body that is not JSON',
    client: fn('invalid-json'),
    case: 'simple/accepted',
    breaks: ['http.json-body'],
  },
  // http.known-endpoint
  {
    defect: "calls /rental-comapnies, the interface listing's misspelling (shell)",
    client: shell('misspelled.sh', 'call GET "/rental-companies?', 'call GET "/rental-comapnies?'),
    case: 'advanced/new-vehicle',
    breaks: ['advanced.company-lookup-first', 'http.known-endpoint'],
  },
  {
    defect: 'pings an undocumented GET /status first',
    client: fn('ping-first'),
    case: 'advanced/existing-vehicle',
    breaks: ['http.known-endpoint'],
  },
  {
    defect: 'sends GET /payment, as the interface listing shows',
    client: fn('simple-get-payment'),
    case: 'simple/accepted',
    breaks: ['http.known-endpoint', 'simple.one-request'],
  },
  // advanced.company-lookup-first
  {
    defect: 'skips the company lookup',
    client: fn('skip-company-lookup'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.company-lookup-first'],
  },
  {
    defect: 'skips the company lookup when the owner is unknown',
    client: fn('skip-company-lookup'),
    case: 'advanced/unknown-owner',
    breaks: ['advanced.company-lookup-first'],
  },
  {
    defect: 'sends the kennitala with a hyphen',
    client: fn('kennitala-with-hyphen'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.company-lookup-first'],
  },
  // advanced.unknown-owner-stops
  {
    defect: 'continues after an empty company list',
    client: fn('continue-unknown-owner'),
    case: 'advanced/unknown-owner',
    breaks: ['advanced.unknown-owner-stops'],
  },
  // advanced.vehicle-lookup
  {
    defect: 'queries vehicles by number= instead of plate=',
    client: fn('vehicle-query-param'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.vehicle-lookup'],
  },
  // advanced.create-vehicle-when-missing
  {
    defect: 'creates the vehicle with country "IS"',
    client: fn('country-upper-case'),
    case: 'advanced/new-vehicle',
    breaks: ['advanced.create-vehicle-when-missing'],
  },
  // advanced.custodian-after-create
  {
    defect: 'links the custodian to the location id instead of the company id',
    client: fn('custodian-wrong-company'),
    case: 'advanced/new-vehicle',
    breaks: ['advanced.custodian-after-create'],
  },
  {
    defect: 'uses the visit date as acquiredOn, not the registration date',
    client: fn('acquired-on-visit-date'),
    case: 'advanced/inactive-vehicle',
    breaks: ['advanced.custodian-after-create'],
  },
  // advanced.no-create-when-found
  {
    defect: 'creates a vehicle even when one was found',
    client: fn('create-when-found'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.first-vehicle', 'advanced.no-create-when-found'],
  },
  {
    defect: 'creates only a custodian for the vehicle it found',
    client: fn('custodian-when-found'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.no-create-when-found'],
  },
  // advanced.first-vehicle
  {
    defect: 'takes the last listed vehicle',
    client: fn('last-vehicle'),
    case: 'advanced/multiple-vehicles',
    breaks: ['advanced.first-vehicle'],
  },
  // advanced.payment-body
  {
    defect: 'sends the amount as a string',
    client: fn('amount-string'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.payment-body'],
  },
  {
    defect: 'sends the currency EUR',
    client: fn('wrong-currency'),
    case: 'advanced/new-vehicle',
    breaks: ['advanced.payment-body'],
  },
  {
    defect: 'sends timestamps in ISO 8601 with a T',
    client: fn('iso-timestamps'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.payment-body'],
  },
  {
    defect: 'moves the end one second when it equals the start',
    client: fn('bump-equal-end'),
    case: 'advanced/same-start-end',
    breaks: ['advanced.payment-body'],
  },
  // advanced.single-payment
  {
    defect: 'sends the payment twice',
    client: fn('two-payments'),
    case: 'advanced/existing-vehicle',
    breaks: ['advanced.single-payment'],
  },
  {
    defect: 'looks the vehicle up again after paying',
    client: fn('payment-not-last'),
    case: 'advanced/new-vehicle',
    breaks: ['advanced.single-payment'],
  },
  // simple.one-request
  {
    defect: 'looks up the company before the simple payment (process)',
    client: `${DEFECTIVE} simple-two-requests`,
    case: 'simple/accepted',
    breaks: ['simple.one-request'],
  },
  // simple.body
  {
    defect: 'sends acquiredOn with a time',
    client: fn('simple-acquired-timestamp'),
    case: 'simple/new-vehicle',
    breaks: ['simple.body'],
  },
  {
    defect: 'sends the simple amount as a string',
    client: fn('simple-amount-string'),
    case: 'simple/accepted',
    breaks: ['simple.body'],
  },
  // client.completes
  {
    defect: 'exits 1 when the owner is unknown (shell)',
    client: shell(
      'exit-1.sh',
      '((n > 0)) || finish skipped',
      '((n > 0)) || { echo "owner unknown" >&2; exit 1; } || finish skipped',
    ),
    case: 'advanced/unknown-owner',
    breaks: ['client.completes'],
  },
  {
    defect: 'exits 1 when the simple payment is refused (process)',
    client: `${DEFECTIVE} simple-exit-1-when-refused`,
    case: 'simple/rejected',
    breaks: ['client.completes'],
  },
  {
    defect: 'hangs after paying (process): killed after the timeout',
    client: `${DEFECTIVE} hang-after-paying`,
    case: 'advanced/existing-vehicle',
    breaks: ['client.completes'],
    timeoutMs: 4000,
    timedOut: true,
  },
  // client.outcome
  {
    defect: 'keys on the HTTP status, not on id (process)',
    client: `${DEFECTIVE} simple-keys-on-status`,
    case: 'simple/rejected-ok-status',
    breaks: ['client.outcome'],
  },
  {
    defect: 'writes outcome paid when the owner is unknown (python)',
    client: python('paid-when-skipped.py', 'raise Finished("skipped"', 'raise Finished("paid"'),
    case: 'advanced/unknown-owner',
    breaks: ['client.outcome'],
  },
  {
    defect: 'writes a result file that is not JSON (process)',
    client: `${DEFECTIVE} bad-result-file`,
    case: 'simple/accepted',
    breaks: ['client.outcome'],
  },
  // client.stops-on-failure
  {
    defect: 'ignores a failed POST /custodians and pays anyway (shell, no retries)',
    client: shellNoRetry('ignore-custodian-failure.sh', 'require_2xx "custodian creation"', ': ignored'),
    case: 'resilience/custodian-create/unavailable/once',
    breaks: ['client.stops-on-failure'],
  },
  {
    defect: 'retries POST /payments until it sees 200 though the service answers 201: 5 attempts, 4 payments',
    client: fn('retry-until-200'),
    case: 'resilience/payment-create/unavailable/once',
    breaks: ['advanced.single-payment', 'client.stops-on-failure'],
  },
  {
    defect: 'exits 1 when a call fails (shell, no retries)',
    client: shellNoRetry(
      'exit-1-on-failure.sh',
      'finish rejected "" "$1 failed: $why"',
      'echo "$1 failed: $why" >&2; exit 1',
    ),
    case: 'resilience/payment-create/unavailable/once',
    breaks: ['client.completes'],
  },
  {
    defect: 'exits 1 when the simple payment fails (process)',
    client: `${DEFECTIVE} simple-exit-1-when-refused`,
    case: 'resilience/simple-payment/unavailable/always',
    breaks: ['client.completes'],
  },
  // The resilience rules (test/conform/matrix.test.ts runs each of these across its matrix rows)
  {
    defect: 'sends a payment again after the connection was reset',
    client: fn('resend-payment'),
    case: 'resilience/payment-create/reset/once',
    breaks: ['resilience.no-resend'],
  },
  {
    defect: 'retries a 503 at once, ignoring Retry-After',
    client: fn('no-retry-after'),
    case: 'resilience/payment-create/unavailable/once',
    breaks: ['resilience.retry-after'],
  },
  {
    defect: 'tries a lookup 6 times after resets, without waiting (a retry storm)',
    client: fn('retry-forever'),
    case: 'resilience/vehicle-lookup/reset/always',
    breaks: ['resilience.bounded-retries'],
  },
  {
    defect: 'sends a request refused with 401 three times',
    client: fn('retry-refusal'),
    case: 'resilience/company-lookup/token-revoked/once',
    breaks: ['resilience.no-retry-on-refusal'],
  },
  {
    defect: 'sends a payment refused with 422 three times',
    client: fn('retry-refusal'),
    case: 'simple/rejected',
    breaks: ['resilience.no-retry-on-refusal'],
  },
  {
    defect: "keeps waiting out Retry-After past the case's deadline (process): killed while retrying",
    client: `${DEFECTIVE} retries-past-deadline`,
    case: 'resilience/vehicle-lookup/unavailable/always',
    breaks: ['client.completes', 'resilience.deadline'],
    timeoutMs: RETRY_AFTER_SECONDS * 2000 + 1000,
    timedOut: true,
  },
  {
    defect: 'has no request timeout (process): killed at the deadline',
    client: `${DEFECTIVE} no-timeout`,
    case: 'resilience/payment-create/hang/once',
    breaks: ['client.completes', 'resilience.deadline'],
    timeoutMs: 3000,
    timedOut: true,
  },
  {
    defect: 'reports paid when the answer to its payment was lost',
    client: fn('paid-after-failure'),
    case: 'resilience/payment-create/garbage/once',
    breaks: ['client.outcome'],
  },
  // The fidelity rules: clients correct against relay-mock (test/conform/variants.test.ts runs each in its flow case
  // too), each leaning on one of its choices where the interface is silent, in the variant case that answers otherwise
  {
    defect: 'takes only a 201 as created',
    client: fn('only-201-created'),
    case: 'variants/create.status=200-no-location/advanced-new-vehicle',
    breaks: ['advanced.custodian-after-create', 'advanced.single-payment', 'fidelity.create.status'],
  },
  {
    defect: 'takes only a 201 as a recorded simple payment',
    client: fn('only-201-created'),
    case: 'variants/create.status=200-no-location/simple-accepted',
    breaks: ['client.outcome', 'fidelity.create.status'],
  },
  {
    defect: "reads the new vehicle's id from Location",
    client: fn('id-from-location'),
    case: 'variants/create.status=201-no-location/advanced-new-vehicle',
    breaks: ['advanced.custodian-after-create', 'fidelity.create.status'],
  },
  {
    defect: 'refuses a record with a field the interface does not list (process)',
    client: `${DEFECTIVE} strict-records`,
    case: 'variants/records.extra-fields=extra/advanced-existing-vehicle',
    breaks: ['advanced.vehicle-lookup', 'advanced.single-payment', 'client.completes', 'fidelity.records.extra-fields'],
  },
  {
    defect: "reads an error's title as a problem document's",
    client: fn('problem-title'),
    case: 'variants/error.body=json-message/advanced-payment-unavailable',
    breaks: ['client.completes', 'fidelity.error.body'],
  },
  {
    defect: "decides paid from the simple answer's status being new",
    client: fn('paid-from-status-new'),
    case: 'variants/simple.answer=id-only/simple-accepted',
    breaks: ['client.outcome', 'fidelity.simple.answer'],
  },
  {
    defect: 'takes a 403 for a bug of its own',
    client: fn('throws-on-403'),
    case: 'variants/auth.refusal=403/simple-token-revoked',
    breaks: ['client.completes', 'fidelity.auth.refusal'],
  },
  {
    defect: "reads the scheme of a 401's challenge",
    client: fn('needs-challenge'),
    case: 'variants/auth.refusal=401-no-challenge/simple-token-revoked',
    breaks: ['client.completes', 'fidelity.auth.refusal'],
  },
  {
    defect: "takes only a 422 as the simple endpoint's refusal",
    client: fn('refusal-422-only'),
    case: 'variants/simple.refusal-status=400/simple-rejected',
    breaks: ['client.completes', 'fidelity.simple.refusal-status'],
  },
  {
    defect: 'keys on the HTTP status where a refusal is 200',
    client: fn('simple-keys-on-status'),
    case: 'variants/simple.refusal-status=200/simple-rejected',
    breaks: ['client.outcome', 'fidelity.simple.refusal-status'],
  },
  {
    defect: 'reports rejected for an owner missing from its own list of rental companies, whatever the answer',
    client: staleOwnerList,
    case: 'variants/simple.unknown-owner=accepted/simple-unknown-owner',
    breaks: ['client.outcome', 'fidelity.simple.unknown-owner'],
  },
  // fidelity.strict: a form relay-mock accepts beyond the interface's text (test/conform/leniency.test.ts has one client per form).
  {
    defect: 'adds a cache-buster to its lookups',
    client: lenientClient('cache-buster'),
    case: 'variants/strict/advanced-new-vehicle',
    breaks: ['fidelity.strict'],
  },
  {
    defect: 'sends acquiredOn as a bare date',
    client: lenientClient('date-only-acquired-on'),
    case: 'variants/strict/advanced-new-vehicle',
    breaks: ['advanced.custodian-after-create', 'fidelity.strict'],
  },
]

/** Safe but short of best: each warning a rule gives, shown by a client that does that one thing. */
interface SecondBest {
  defect: string
  client: Client
  case: string
  /** Exactly the rules that warn in that case (none fails). */
  warns: string[]
  /** What the warning's advice must say, and must not. */
  advice?: { says: RegExp; not: RegExp }
}

/** The advice for too many attempts: the client's own retry limit, or the HTTP library's own resend. */
const OWN_LOOP = /: set the retry limit to 2\b/
const LIBRARY = /most likely its HTTP library resent it by itself/

const secondBest: SecondBest[] = [
  {
    defect: 'makes 4 attempts at a lookup, as axios-retry and urllib3 Retry(total=3) do',
    client: fn('four-attempts'),
    case: 'resilience/vehicle-lookup/reset/always',
    warns: ['resilience.bounded-retries'],
    advice: { says: OWN_LOOP, not: LIBRARY },
  },
  {
    defect: 'makes 4 attempts at the first lookup, on a connection of its own',
    client: fn('four-attempts'),
    case: 'resilience/company-lookup/reset/always',
    warns: ['resilience.bounded-retries'],
    advice: { says: OWN_LOOP, not: LIBRARY },
  },
  {
    // A process of its own: in the test's process, its resend would wait on the runner's and the mock's work.
    defect:
      "makes 3 attempts at a lookup, its HTTP layer resending a GET by itself after a kept-alive connection's reset (4 in all; process)",
    client: `${DEFECTIVE} keep-alive-resend`,
    case: 'resilience/vehicle-lookup/reset/always',
    warns: ['resilience.bounded-retries'],
    advice: { says: LIBRARY, not: OWN_LOOP },
  },
  {
    defect: 'retries a lookup at once after a 500',
    client: fn('quick-retry'),
    case: 'resilience/vehicle-lookup/server-error/once',
    warns: ['resilience.bounded-retries'],
  },
  {
    defect: 'gives up on a lookup at once after a reset',
    client: fn('gives-up-on-lookup'),
    case: 'resilience/vehicle-lookup/reset/once',
    warns: ['resilience.bounded-retries'],
  },
  {
    defect: 'gives up at once on a 503 it was told to retry after a second',
    client: fn('gives-up-on-503'),
    case: 'resilience/payment-create/unavailable/once',
    warns: ['resilience.retry-after'],
  },
  {
    defect: 'sends a payment refused with 422 once more',
    client: fn('retry-refusal-once'),
    case: 'simple/rejected',
    warns: ['resilience.no-retry-on-refusal'],
  },
  {
    defect: 'reports rejected when the answer to its payment was lost',
    client: fn('rejected-when-unknown'),
    case: 'resilience/payment-create/reset/once',
    warns: ['client.outcome'],
  },
  {
    defect: 'adds a cache-buster to its lookups, which relay-mock ignores',
    client: lenientClient('cache-buster'),
    case: 'advanced/new-vehicle',
    warns: ['fidelity.strict'],
  },
]

async function run(item: Broken | SecondBest) {
  const client =
    typeof item.client === 'function' && item.client.length === 0
      ? await (item.client as () => Promise<string>)()
      : item.client
  const result = await runConformance({
    client,
    cases: [item.case],
    jobs: 1,
    timeoutMs: ('timeoutMs' in item ? item.timeoutMs : undefined) ?? 10_000,
  })
  // A variant case's run holds the flow case it repeats too.
  return result.cases.find((kase) => kase.id === item.case)!
}

describe('broken clients', () => {
  for (const item of broken) {
    it.concurrent(`${item.case}: a client that ${item.defect} fails exactly ${item.breaks.join(', ')}`, async () => {
      const result = await run(item)
      const failed = result.checks.filter((check) => check.status === 'failed')
      expect(failed.map((check) => check.rule).sort()).toEqual([...item.breaks].sort())
      expect(result.status).toBe('failed')
      expect(result.timedOut).toBe(item.timedOut ?? false)
      for (const check of failed) {
        expect(check.message).toMatch(/^Expected /)
        expect(check.message).toContain('(interface: §')
      }
    })
  }

  for (const item of secondBest) {
    it.concurrent(
      `${item.case}: a client that ${item.defect} is warned by exactly ${item.warns.join(', ')}, and fails nothing`,
      async () => {
        const result = await run(item)
        expect(
          result.checks.filter((check) => check.status === 'failed').map((check) => `${check.rule}: ${check.message}`),
        ).toEqual([])
        const warned = result.checks.filter((check) => check.status === 'warning')
        expect(warned.map((check) => check.rule).sort()).toEqual([...item.warns].sort())
        expect(result.status).toBe('warning')
        for (const check of warned) expect(check.message).toMatch(/^Expected /)
        if (item.advice) {
          expect(warned[0].message).toMatch(item.advice.says)
          expect(warned[0].message).not.toMatch(item.advice.not)
        }
      },
    )
  }

  it('has a broken client for every rule', () => {
    const tripped = new Set(broken.flatMap((item) => item.breaks))
    expect(rules.map((rule) => rule.id).filter((id) => !tripped.has(id))).toEqual([])
  })
})
