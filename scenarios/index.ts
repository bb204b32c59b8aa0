// Every scenario the mock knows, by name. One file per scenario beside this one.
import type { Scenario } from '../src/core/service/scenario.js'
import custodianUnavailable from './custodian-unavailable.js'
import defaultWorld from './default.js'
import existingVehicle from './existing-vehicle.js'
import inactiveVehicle from './inactive-vehicle.js'
import multipleVehicles from './multiple-vehicles.js'
import newVehicle from './new-vehicle.js'
import paymentUnavailable from './payment-unavailable.js'
import simpleFailure from './simple-failure.js'
import simpleFailureOkStatus from './simple-failure-ok-status.js'
import simpleUnavailable from './simple-unavailable.js'
import unknownOwner from './unknown-owner.js'

export const scenarios: ReadonlyMap<string, Scenario> = new Map(
  [
    defaultWorld,
    unknownOwner,
    newVehicle,
    existingVehicle,
    multipleVehicles,
    inactiveVehicle,
    simpleFailure,
    simpleFailureOkStatus,
    paymentUnavailable,
    custodianUnavailable,
    simpleUnavailable,
  ].map((s) => [s.name, s]),
)
