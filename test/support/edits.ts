// A copy of an example client's text with a few of its lines changed, for the tests that plant a defect
// in it or take a setting out. Each text must be in the example, so a change to the example that drops it
// fails the test that relies on it rather than testing the example unchanged.

/**
 * `source`, the text of `example`, with each `[text, replacement]` applied once; throws, naming the
 * example, the text and the variant `name`, when a text is no longer there.
 * @example withEdits('examples/clients/shell/client.sh', source, 'no-auth.sh', [['-H "Authorization', '-H "X']])
 */
export function withEdits(
  example: string,
  source: string,
  name: string,
  edits: ReadonlyArray<readonly [text: string, replacement: string]>,
): string {
  for (const [text, replacement] of edits) {
    if (!source.includes(text))
      throw new Error(`The example ${example} no longer holds ${JSON.stringify(text)}: update the variant "${name}".`)
    source = source.replace(text, replacement)
  }
  return source
}
