// Scenarios: named states of the world, each seeded deterministically on top of the base world,
// each with the visit that exercises it.
import type { WorldData } from './store.js'
import type { Random } from '../random.js'
import { toArmedFault, type ArmedFault } from './faults.js'

/** The data a location has for one paid visit (the interface's "data the location needs"). */
export interface Visit {
  plate: string
  ownerKennitala: string
  /** The date the owner acquired the vehicle, YYYY-MM-DD. */
  registrationDate: string
  /** YYYY-MM-DD HH:MM:SS */
  visitStart: string
  /** YYYY-MM-DD HH:MM:SS; may equal visitStart. */
  visitEnd: string
  amount: number
  currency: 'ISK'
}

/** Every way the simple endpoint can answer, as a scenario names it. */
export const SIMPLE_PAYMENT_BEHAVIOURS = ['accept', 'refuse', 'refuse-ok-status'] as const

/** How the simple endpoint answers in this world. */
export type SimplePaymentBehaviour =
  /** Records the payment and answers 201 with `id` (the default). */
  | 'accept'
  /** Refuses every payment: 422 with a `message` and no `id`. */
  | 'refuse'
  /** Refuses every payment but answers 200 with a `message` and no `id`: clients must key on `id`. */
  | 'refuse-ok-status'

export interface SeedContext {
  /** The base world, to change in place: its records are plain objects. */
  data: WorldData
  random: Random
  /** A plate that no vehicle in the world has. */
  unusedPlate: () => string
  /** A valid company kennitala that no rental company in the world has. */
  unusedKennitala: () => string
  /** The default visit timing and amount, to spread into the visit a scenario returns. */
  visitDefaults: Pick<Visit, 'visitStart' | 'visitEnd' | 'amount' | 'currency'>
}

export interface Scenario {
  name: string
  /** One line: the state of the world. */
  description: string
  simplePayment: SimplePaymentBehaviour
  /** Faults armed in every world of this scenario (none by default), e.g. `{ route: 'POST /payments', kind: 'unavailable', mode: 'once' }`. */
  faults?: ReadonlyArray<ArmedFault>
  /** Changes the base world and returns the visit that exercises this scenario. */
  seed: (context: SeedContext) => Visit
}

/**
 * Names a scenario (one per file in `scenarios/`).
 * @example
 * export default defineScenario({
 *   name: 'new-vehicle',
 *   description: 'The owner is registered; the plate is not known yet',
 *   seed: ({ data, unusedPlate, visitDefaults }) => ({ ... }),
 * })
 */
export function defineScenario(
  scenario: Omit<Scenario, 'simplePayment'> & { simplePayment?: SimplePaymentBehaviour },
): Scenario {
  for (const fault of scenario.faults ?? []) {
    try {
      toArmedFault(fault)
    } catch (error) {
      throw new Error(`Failed to define the scenario ${scenario.name}: ${(error as Error).message}.`, { cause: error })
    }
  }
  return { simplePayment: 'accept', ...scenario }
}
