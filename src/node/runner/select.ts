// The cases a run selects: by suite, flow and --case pattern (an id, a prefix, a glob), with the nearest ids when a pattern matches none.
import { cases as allCases, suites as allSuites } from '../../../suites/index.js'
import { RelayMockError } from '../../core/service/mock.js'
import { nearest } from '../../core/text.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { RunOptions } from './options.js'

/**
 * The cases a run selects, in suite order.
 * @example selectCases({ flows: ['simple'] }).map((c) => c.id) // ['simple/accepted', ...]
 */
export function selectCases(options: Pick<RunOptions, 'flows' | 'cases' | 'suite' | 'suites'> = {}): ConformanceCase[] {
  let source = options.suite ?? allCases
  if (options.suites?.length) {
    for (const name of options.suites) {
      if (!allSuites.some((suite) => suite.name === name)) {
        throw new RelayMockError(
          'SUITE_NOT_FOUND',
          `Failed to select cases: there is no suite "${name}". Please use one of: ${allSuites.map((suite) => suite.name).join(', ')}.`,
        )
      }
    }
    const chosen = new Set(
      allSuites
        .filter((suite) => options.suites!.includes(suite.name))
        .flatMap((suite) => suite.cases.map((kase) => kase.id)),
    )
    source = source.filter((kase) => chosen.has(kase.id))
  }
  for (const flow of options.flows ?? []) {
    if (flow !== 'advanced' && flow !== 'simple') {
      throw new RelayMockError(
        'INVALID_FLOW',
        `Failed to select cases: there is no flow "${String(flow)}". Please use advanced or simple.`,
      )
    }
  }
  let selected = options.flows?.length ? source.filter((kase) => options.flows!.includes(kase.flow)) : [...source]
  if (options.cases?.length) {
    const matchers = options.cases.map((pattern) => {
      const matches = caseMatcher(pattern)
      if (!source.some((kase) => matches(kase.id))) {
        throw new RelayMockError(
          'CASE_NOT_FOUND',
          `Failed to find the case "${pattern}": no case matches it. Please use ${caseHint(
            pattern,
            source.map((kase) => kase.id),
          )}.`,
        )
      }
      return matches
    })
    selected = selected.filter((kase) => matchers.some((matches) => matches(kase.id)))
  }
  if (selected.length === 0) {
    throw new RelayMockError(
      'NO_CASES',
      'Failed to select cases: the flows and cases given leave none to run. Please widen --flow or --case.',
    )
  }
  return selected
}

/**
 * Whether a `--case` pattern selects a case id: the id itself; a prefix ending in `/`; or a glob, where
 * `*` stands for any run of characters (a `/` too) and `?` for one.
 * @example caseMatcher('resilience/*-lookup/hang/*')('resilience/vehicle-lookup/hang/once') // true
 */
export function caseMatcher(pattern: string): (id: string) => boolean {
  if (pattern.endsWith('/')) return (id) => id.startsWith(pattern)
  if (!/[*?]/.test(pattern)) return (id) => id === pattern
  const source = [...pattern]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  const glob = new RegExp(`^${source}$`, 's')
  return (id) => glob.test(id)
}

/**
 * What a `--case` pattern that matches no case could have been: the nearest ids and a glob per suite
 * (never every id: there are hundreds).
 * @example caseHint('simple/acepted', ids) // 'an id such as simple/accepted, simple/rejected or simple/new-vehicle (the nearest), or a glob such as advanced/*, ...'
 */
export function caseHint(pattern: string, ids: readonly string[]): string {
  const suites = [...new Set(ids.map((id) => id.split('/')[0]))].map((suite) => `${suite}/*`)
  return `an id such as ${orList(nearest(pattern, ids))} (the nearest), or a glob such as ${orList(suites)}`
}

const orList = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
