// The protocol of the relay service, each rule of HTTP written once: which endpoint a method and path
// name (with the interface's two slips taught), Bearer parsing, the content type and charset of a body,
// and reading a body within its limits. The mock answers with these, the HAR reader names routes with
// them, and the rules judge clients with them, so a request the mock accepts never breaks an `http.*`
// or `auth.*` rule, and the reverse.
// Each concern is a module of protocol/ (its README.md says which); this file names them for the rest of
// the core, so that an import says `protocol` wherever the rule lives.
export { SERVICE_TABLE, compileRoutes, headOf, routeById, type CompiledRoute } from './protocol/table.js'
export { allowOf, resolveRoute, routeOf } from './protocol/routing.js'
export { KNOWN_SLIPS, meantPath, type Slip } from './protocol/not-found.js'
export { HOP_BY_HOP, endToEnd, header, type Headers } from './protocol/headers.js'
export { parseQuery, parseQueryOnce } from './protocol/query.js'
export { parseBearer, type BearerVerdict } from './protocol/bearer.js'
export {
  bodyProblem,
  bodyVerdict,
  contentTypeProblem,
  jsonOf,
  parseJsonText,
  pendingBodyRefusal,
  readJsonBody,
  readsBody,
  utf8Bytes,
  type BodyInput,
  type BodyRequest,
  type BodyVerdict,
} from './protocol/body.js'
export { PATH_ANSWERS, PROBLEM_JSON, pipelineAnswers, type PipelineAnswer } from './protocol/answers.js'
