// The resilience matrix: every step a fault can break, every kind of fault, once (transient) and
// always (persistent). Each cell is a case in a fresh world chosen so that a correct client reaches
// that step (the creations need the new-vehicle world; the simple payment runs the simple flow). The
// kinds and steps are the fault table's (src/core/service/faults.ts): a new kind or step is a new row here.
import {
  FAULT_KINDS,
  FAULT_STEPS,
  RATE_LIMITED_AHEAD,
  RETRY_AFTER_SECONDS,
  SLOW_FAULT_MS,
  type FaultKind,
  type FaultMode,
  type FaultStep,
} from '../src/core/service/faults.js'
import type { ConformanceCase } from '../src/core/rules/suite.js'
import { defineSuite } from '../src/core/rules/suite.js'
import type { Flow, Outcome } from '../src/core/rules/types.js'

/** The world and flow in which a correct client reaches each step. */
const WORLDS: Record<FaultStep, { flow: Flow; scenario: string }> = {
  'company-lookup': { flow: 'advanced', scenario: 'existing-vehicle' },
  'vehicle-lookup': { flow: 'advanced', scenario: 'existing-vehicle' },
  'vehicle-create': { flow: 'advanced', scenario: 'new-vehicle' },
  'custodian-create': { flow: 'advanced', scenario: 'new-vehicle' },
  'payment-create': { flow: 'advanced', scenario: 'existing-vehicle' },
  'simple-payment': { flow: 'simple', scenario: 'existing-vehicle' },
}

/**
 * What each kind of fault does to the request, in a case's title, its figures read from the fault table's
 * (a figure changed there is changed here). A lookup changes nothing, so a lost
 * answer is all there is to say of it; a creation is recorded first, which is why it must not be sent again.
 */
const SAYS: Record<FaultKind, string> = {
  unavailable: `answers 503 with Retry-After: ${RETRY_AFTER_SECONDS}`,
  'rate-limited': `answers 429 with a Retry-After date ${RATE_LIMITED_AHEAD}`,
  'server-error': 'answers 500',
  reset: 'resets the connection',
  hang: 'never answers',
  truncated: 'cuts the 2xx body in half',
  garbage: "answers a proxy's HTML page",
  slow: `answers right, ${SLOW_FAULT_MS / 1000} s late`,
  'token-revoked': 'revokes the token: 401 from here on',
}

/** A lost answer: the request went through (a creation was recorded), the client cannot tell. */
const LOST = new Set<FaultKind>(['server-error', 'reset', 'hang', 'truncated', 'garbage'])

/** A fault's effect at a step: a creation that the fault strikes after it was applied is recorded first. */
function says(route: string, kind: FaultKind): string {
  return LOST.has(kind) && route.startsWith('POST') ? `records it, then ${SAYS[kind]}` : SAYS[kind]
}

/** The outcomes a correct client may reach in a cell, the likeliest first. */
function outcomesOf(step: FaultStep, kind: FaultKind, mode: FaultMode): Outcome[] {
  if (kind === 'slow') return ['paid']
  if (kind === 'token-revoked') return ['rejected']
  if (kind === 'unavailable' || kind === 'rate-limited') return mode === 'once' ? ['paid', 'rejected'] : ['rejected']
  // The answer was lost after the request was recorded.
  if (step === 'payment-create' || step === 'simple-payment') return ['unknown']
  if (step === 'custodian-create') return ['rejected']
  // The vehicle was created the first time: a client that looks the plate up again finds it and pays.
  if (step === 'vehicle-create') return ['rejected', 'paid']
  return mode === 'once' ? ['paid', 'rejected'] : ['rejected']
}

function cell(step: FaultStep, kind: FaultKind, mode: FaultMode): ConformanceCase {
  const route = FAULT_STEPS[step]
  const { flow, scenario } = WORLDS[step]
  const outcomes = outcomesOf(step, kind, mode)
  const when = mode === 'once' ? 'the first time' : 'every time'
  const advice =
    LOST.has(kind) && route.startsWith('POST')
      ? step === 'payment-create' || step === 'simple-payment'
        ? ': never resend; report unknown'
        : ': never resend blind'
      : ''
  return {
    id: `resilience/${step}/${kind}/${mode}`,
    flow,
    scenario,
    title: `${route} ${says(route, kind)} ${when}${advice}`,
    outcome: outcomes[0],
    ...(outcomes.length > 1 ? { outcomes } : {}),
    faults: [{ route, kind, mode }],
    cell: { step, kind, mode },
  }
}

const steps = Object.keys(FAULT_STEPS) as FaultStep[]
const kinds = Object.keys(FAULT_KINDS) as FaultKind[]
const modes: FaultMode[] = ['once', 'always']

export default defineSuite({
  name: 'resilience',
  description:
    'The fault matrix: each step of both flows, each kind of fault, once and always; a correct client waits as told, retries within bounds, never resends a payment blind, and says unknown when it cannot know',
  cases: steps.flatMap((step) => kinds.flatMap((kind) => modes.map((mode) => cell(step, kind, mode)))),
})
