// Which line of a dead client's output names its error. Each language prints its error in a place of its
// own, and the last line is seldom it: PHP ends with `thrown in … on line 48`, Java and Node with stack
// frames (Node with its version), Go with the goroutine dump, Ruby with its `from …` frames. The rules
// that quote a crash (client.completes, the fidelity rules) quote this line; the reports keep the whole output.

/** A language's error line: where it is, and what to quote with it. */
interface ErrorForm {
  /** Finds the error's line (and the cause worth quoting after it) in the output's lines. */
  find(lines: string[]): string | undefined | [string, string | undefined]
}

/** The longest quote of one line; a longer one is cut with `…`. */
const QUOTE_CHARS = 200

const clip = (line: string) => (line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line)

/** The first line matching `pattern`, trimmed. */
const first = (lines: string[], pattern: RegExp) => lines.find((line) => pattern.test(line))?.trim()
/** The last line matching `pattern`, trimmed. */
const last = (lines: string[], pattern: RegExp) => lines.findLast((line) => pattern.test(line))?.trim()

/** An error line with its cause: Java's `Caused by:`, Node's `[cause]:`. */
const withCause = (error: string | undefined, cause: string | undefined): [string, string | undefined] | undefined =>
  error === undefined ? undefined : [error, cause]

/** In the order they are tried: the first form that finds a line names the error. */
const FORMS: ReadonlyArray<ErrorForm> = [
  // PHP: `PHP Fatal error:  Uncaught TypeError: …` (the log line on stderr; `Fatal error: …` where displayed).
  { find: (lines) => first(lines, /^(PHP )?(Fatal|Parse) error: /)?.replace(/\s+/g, ' ') },
  // Java: `Exception in thread "main" …`, and the root cause, its last `Caused by: …`.
  { find: (lines) => withCause(first(lines, /^Exception in thread "/), last(lines, /^Caused by: /)) },
  // Go: `panic: …` before the goroutine dump, or the runtime's `fatal error: …`.
  { find: (lines) => first(lines, /^(panic|fatal error): /) },
  // Python: after the last `Traceback (most recent call last):`, the first line that is not a frame.
  {
    find: (lines) => {
      const from = lines.findLastIndex((line) => line.startsWith('Traceback (most recent call last):'))
      return from < 0
        ? undefined
        : lines
            .slice(from + 1)
            .find((line) => line.trim() !== '' && !/^\s/.test(line))
            ?.trim()
    },
  },
  // Ruby: its first line, `…:in `fetch': key not found: "id" (KeyError)`, before its `from …` frames.
  {
    find: (lines) =>
      first(lines, /:in [`'].*\([A-Z]\w*(::[A-Z]\w*)*\)$/) ??
      lines[lines.findIndex((line) => /^\s+from /.test(line)) - 1]?.trim(),
  },
  // Node: `TypeError: …` or `Error: …` after the source line and its caret, with its `[cause]: …`.
  {
    find: (lines) =>
      withCause(first(lines, /^([A-Z]\w*)?(Error|Exception)( \[\w+\])?: /), last(lines, /^\s+\[cause\]: /)),
  },
  // A shell: `…: command not found` (bash), `…: not found` (dash).
  { find: (lines) => first(lines, /: command not found$|^\S+: \d+: .*: not found$/) },
]

/** Lines that name no error: stack frames, a version banner, a blank. */
const NOT_THE_ERROR = /^\s*$|^\s*(at |from |#\d+ |\.\.\. \d+ more)|^Node\.js v\d|^exit status \d+$/

/**
 * The line of a dead client's output that names its error, as the rules quote it: the error line of
 * the language that printed it (see FORMS), else the last line that is not a stack frame; stderr first,
 * then stdout. Undefined when the client printed nothing.
 * @example errorLine("crash.rb:2:in `fetch': key not found: \"id\" (KeyError)\n\tfrom crash.rb:2:in `<main>'", '') // 'crash.rb:2:in `fetch\': key not found: "id" (KeyError)'
 */
export function errorLine(stderr: string, stdout = ''): string | undefined {
  for (const text of [stderr, stdout]) {
    const lines = text.replace(/\r/g, '').split('\n')
    for (const form of FORMS) {
      const found = form.find(lines)
      if (Array.isArray(found))
        return found
          .filter((part) => part !== undefined)
          .map(clip)
          .join(' … ')
      if (found) return clip(found)
    }
  }
  for (const text of [stderr, stdout]) {
    const line = text
      .replace(/\r/g, '')
      .split('\n')
      .findLast((candidate) => !NOT_THE_ERROR.test(candidate))
    if (line) return clip(line.trim())
  }
  return undefined
}
