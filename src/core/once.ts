// A memo of one: the answer to the last value, kept until another value comes. A client sends the
// same header, query string and credentials on request after request, so the pipeline reads each
// once instead of once a request.

/**
 * `read`, answering again what it answered last when given the same value. Its answers are shared
 * between callers: freeze what it returns when it is an object.
 * @example
 * const upper = readingOnce((text: string) => text.toUpperCase())
 * upper('abc') // 'ABC', read
 * upper('abc') // 'ABC', the same answer, not read again
 */
export function readingOnce<T>(read: (value: string) => T): (value: string) => T {
  let lastValue: string | undefined
  let lastAnswer: T
  return (value) => {
    if (value !== lastValue) {
      lastAnswer = read(value)
      lastValue = value
    }
    return lastAnswer
  }
}
