// auth.bearer: every request carries `Authorization: Bearer <the case's token>`.
// Works live: on a case's listener (and on serve) the mock's verdict `auth === 'ok'` already means
// "the token of this world". For a request to an unknown path the mock never authenticates, so the
// header itself is read: well-formed, and (when the case's token is known) the same token, compared
// through the journal's mask since the journal never stores a token.
import { maskToken } from '../service/journal.js'
import type { JournalEntry } from '../service/journal.js'
import { parseBearer } from '../service/protocol.js'
import { allOf, capitalize, plural } from '../text.js'
import { defineRule } from './define.js'
import { at, fail, pass, skip } from './facts.js'

function fault(entry: JournalEntry, token: string | undefined): string | undefined {
  const sent = entry.request.headers['authorization']
  const verdict = entry.route !== null ? entry.auth : parseBearer(sent).verdict
  if (verdict === 'missing') return 'sent no Authorization header'
  if (verdict === 'malformed') return `sent "Authorization: ${sent}", which is not "Bearer <token>"`
  if (verdict === 'unknown-token') return `sent a token that is not the case's (RELAY_API_TOKEN): "${sent}"`
  // The token may come masked (from relay-mock's own HAR): compare it as given and as the journal masks
  // it, read as the mock reads a header (any case of "Bearer", any spaces after it).
  const read = entry.route === null && token !== undefined ? parseBearer(sent) : undefined
  if (read?.verdict === 'ok' && read.token !== token && read.token !== maskToken(token!)) {
    return `sent a token that is not the case's (RELAY_API_TOKEN): "${sent}"`
  }
  return undefined
}

export default defineRule({
  id: 'auth.bearer',
  flows: ['advanced', 'simple'],
  title: "every request carries `Authorization: Bearer <the case's token>`",
  cite: '§5 Authentication, rule 1; §4 Endpoints',
  needsCase: false,
  // The mock's own verdict holds for every request it routed; only a request to an unknown path, which
  // it never authenticates, must be compared with the case's token.
  needs: ({ requests }) => (requests.some((entry) => entry.route === null) ? ['token'] : []),
  check({ requests, token }) {
    if (requests.length === 0) return skip('No request was made, so no header to check.')
    const faults = requests.map((entry) => ({ entry, what: fault(entry, token) })).filter((f) => f.what !== undefined)
    if (faults.length === 0)
      return pass(`${capitalize(allOf(requests.length, 'request'))} carried the case's bearer token.`)
    const [first] = faults
    const more =
      faults.length > 1 ? ` (and ${faults.length - 1} more of the ${plural(requests.length, 'request')})` : ''
    return fail(
      `Expected every request to carry "Authorization: Bearer <RELAY_API_TOKEN>"; ${at(requests, first.entry)} ${first.what}${more}.`,
      {
        seq: first.entry.seq,
        expected: 'Bearer <RELAY_API_TOKEN>',
        actual: first.entry.request.headers['authorization'] ?? null,
      },
    )
  },
})
