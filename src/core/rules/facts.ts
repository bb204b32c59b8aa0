// What rules read from a case's journal: the calls, their bodies, and the facts the mock's own
// answers establish (the company found, the vehicles listed, the vehicle created, the payment
// recorded). Deriving facts from the answers, not from the case's inputs, lets the rules that
// need no visit run live on the serve page too.
// Each kind of fact is a module of facts/ (its README.md says which); this file names them for the rules.
export { fail, pass, skip, warn } from './facts/outcomes.js'
export {
  CLOCK_SLACK_MS,
  DOCUMENTED_ROUTES,
  attempts,
  callAfter,
  callSequence,
  calls,
  callsTo,
  routesOf,
  sameRequest,
  sentBeforeAnswer,
  valueAt,
  waitBetween,
} from './facts/calls.js'
export { companyFacts, createdVehicle, firstFaultyBody, vehicleFacts, whatHappened } from './facts/answers.js'
export {
  at,
  bodyUnreadable,
  fieldProblems,
  howLost,
  list,
  mockSaid,
  ms,
  named,
  notCarried,
  notUtf8,
  show,
  whatItGot,
} from './facts/wording.js'
