// import() of what the bundles leave outside them: faker, jiti and a user's own modules. In one function so
// that the CommonJS build of the command line (scripts/bundle.mjs) can hand each such import() to its
// loader: on Node 20, code compiled from V8's code cache cannot run import() itself (src/node/caches/code-cache.ts).

/**
 * import() of a package, resolved from relay-mock's own folder, or of a file URL.
 * @example const { faker } = await importExternal<typeof import('@faker-js/faker/locale/base')>('@faker-js/faker/locale/base')
 */
export function importExternal<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>
}
