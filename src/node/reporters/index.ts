// The reporters, by name: each is one file behind the Reporter interface (onRunStart, onCaseStart,
// onRequest, onCaseEnd, onRunEnd; all optional). The CLI builds its file reporters from this map.
import type { Reporter } from '../../core/rules/types.js'
import { createConsoleReporter, type ConsoleReporterOptions } from './console.js'
import { createJsonReporter } from './json.js'
import { createJunitReporter } from './junit.js'
import { createHtmlReporter } from './html.js'
import { createHarReporter } from './har.js'
import { createGitHubReporter } from './github.js'

/** What a reporter factory may be given: a file for the file formats, a stream for the console. */
export interface ReporterOptions extends ConsoleReporterOptions {
  file?: string
}

export type ReporterFactory = (options: ReporterOptions) => Reporter

function needsFile(name: string, options: ReporterOptions): string {
  if (!options.file) throw new Error(`Failed to create the ${name} reporter: it writes a file. Please pass { file }.`)
  return options.file
}

/**
 * Every reporter, by name. A new format is one file and one line here.
 * @example reporters.junit({ file: 'conform.xml' })
 */
export const reporters: Record<string, ReporterFactory> = {
  console: (options) => createConsoleReporter(options),
  json: (options) => createJsonReporter({ file: needsFile('json', options) }),
  junit: (options) => createJunitReporter({ file: needsFile('junit', options) }),
  html: (options) => createHtmlReporter({ file: needsFile('html', options) }),
  har: (options) => createHarReporter({ file: needsFile('har', options) }),
  github: (options) => createGitHubReporter({ stream: options.stream }),
}

export { createConsoleReporter, formatMs } from './console.js'
export { createJsonReporter, toJsonReport } from './json.js'
export { createJunitReporter, toJUnitXml } from './junit.js'
export { createHtmlReporter, toHtmlReport } from './html.js'
export { createHarReporter, toRunHar } from './har.js'
export { createGitHubReporter, toGitHubAnnotations } from './github.js'
export type { ConsoleReporterOptions } from './console.js'
export type { Reporter } from '../../core/rules/types.js'
