// A check made a yargs option (checked), and what each checked option allows, for the usage text.
import type { Argv, Options } from 'yargs'
import { apply, refused, UsageError, type Check } from './check.js'

const expectations = new Map<string, string>()

/**
 * What the checked option `name` (or an alias of it) allows, once its command's options are declared.
 * @example expectedOf('port') // 'an integer 0-65535'
 */
export function expectedOf(name: string): string | undefined {
  return expectations.get(name)
}

/**
 * A yargs option whose value goes through `check`: read as text (numbers too, so that a refusal
 * shows what was typed), given once unless `repeatable`, and never without a value. The default,
 * if any, goes through the check too. `describe` gets the check's bounds appended, for --help.
 * @example y.option('port', checked('port', port, { alias: 'p', default: 4010, describe: 'Port to listen on' }))
 */
export function checked<T>(
  name: string,
  check: Check<T>,
  options: Options & { repeatable?: boolean; unique?: boolean } = {},
): Options {
  const { repeatable, unique, describe, ...rest } = options
  const flag = `--${name}`
  for (const key of [name, ...[rest.alias ?? []].flat()]) expectations.set(key, check.expected)
  const coerce = (value: unknown): T | T[] => {
    const texts = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'boolean' ? '' : String(v)))
    if (!repeatable && texts.length > 1) {
      throw new UsageError(
        `${flag} is given ${texts.length} times (${texts.map((t) => JSON.stringify(t)).join(', ')}): expected it once.`,
      )
    }
    const values = texts.map((text) => apply(flag, check, text))
    if (unique) {
      const twice = texts.find((text, i) => texts.indexOf(text) !== i)
      if (twice !== undefined) throw refused(flag, twice, 'is given twice', 'each value once')
    }
    return repeatable ? values : values[0]
  }
  return {
    ...rest,
    ...(repeatable ? { array: true } : {}),
    requiresArg: true,
    describe: [describe, check.help].filter(Boolean).join('; '),
    coerce,
  }
}

/**
 * A command's options as the command declares them (its `…Args` interface). yargs infers an argv type
 * from the options it is given, and a checked option's `coerce` turns text into the command's own types,
 * which that inference cannot follow; every value has been through its check by the time the command
 * reads it. The one cast between the two is here.
 * @example builder: (y) => declared<DemoArgs>(y.option('flow', checked('flow', flow)))
 */
export function declared<T>(y: Argv<unknown>): Argv<T> {
  return y as unknown as Argv<T>
}
