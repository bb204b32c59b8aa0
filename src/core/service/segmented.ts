// The records of one kind held in @msw/data collections of SEGMENT records each, with the store's own list in
// creation order beside them: what store.ts builds each kind's Records on (see Segmented).
import { Collection, type Query } from '@msw/data'
import { describeError } from '../errors.js'

/** An @msw/data query of one kind's records: `(q) => q.where({ plate: 'AB123' })`. */
export type RecordQuery<T> = (query: Query<T>) => Query<T>

/**
 * What the collections are given as their schema: a Standard Schema that takes a record as it is.
 * Each record is validated once, where it comes in: a request body by its route's schema (the
 * handler then builds the record from it, typed), a seed's records by their record schema in
 * `load`. A second zod pass inside @msw/data's `create` checked nothing new and cost more than the
 * rest of a POST.
 */
interface Typed<T> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly types?: { readonly input: T; readonly output: T }
    validate(value: unknown): { value: T }
  }
}
const typed = <T>(): Typed<T> => ({
  '~standard': { version: 1, vendor: 'relay-mock', validate: (value) => ({ value: value as T }) },
})

/**
 * A record as the store hands it to @msw/data: a copy of the values, its nested objects (a payment's
 * amount) copied too. @msw/data copies a plain object key by key, with a path for each, before it
 * validates it (to strip the getters of relations, which the store does not use): most of a create's
 * cost. An object that is not plain it takes as it is, so the store makes its copy itself, knowing
 * that records nest one level.
 */
class Stored {
  constructor(values: object) {
    for (const key of Object.keys(values)) {
      const value = (values as Record<string, unknown>)[key]
      ;(this as Record<string, unknown>)[key] =
        value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : value
    }
  }
}

/** Records per @msw/data collection (see Segmented). */
const SEGMENT = 256

interface Segment<T extends object> {
  /** The segment's records, in creation order: the store's own list, which its indexes and `all()` read. */
  records: T[]
  /** The library's collection of them, made when a query first has records of the segment to give it. */
  collection: Collection<Typed<T>> | undefined
  /** Where the records the collection has not been given start (those removed from the front are never given). */
  handed: number
  /** Settles (never rejects) when the collection holds every record it has been given. */
  ready: Promise<unknown>
  /**
   * The store's record of each copy the collection holds instead: the library marks a record it holds
   * with two properties, which a frozen record (a user may freeze one) cannot take.
   */
  copies: WeakMap<object, T> | undefined
}

/**
 * One kind's records, oldest first, in segments of at most SEGMENT records, each with its own @msw/data
 * collection.
 *
 * A record reaches @msw/data when something reads through the library (`query`: @msw/data's own query
 * API), not when it is created. Every lookup of the service is answered by the store's own lists and
 * indexes, and a create in the library costs more than the rest of a POST's store work together (it
 * copies, defines two symbol properties, makes a Map and runs two promises per record): paying it on
 * each request would buy nothing that is read. A query gives the library the records created since the
 * last one, waits until it holds them, and asks it.
 *
 * A world at its cap removes its oldest record on every create. The library deletes a record by a scan
 * and a splice of its whole array, and tells its listeners with an event. Removal here is oldest first,
 * so a removed record is only counted off the front of the oldest segment, and that segment is dropped,
 * with its collection, once all of its records are gone (until then up to SEGMENT - 1 removed records
 * stay in it, out of every index, of `all()` and of what a query answers).
 */
export class Segmented<T extends object> {
  readonly #segments: Array<Segment<T>> = []
  readonly #schema = typed<T>()
  /** How many records at the front of the oldest segment are removed. */
  #removed = 0
  #count = 0
  /** Every record removed after the library was given it: a query leaves out what the library still holds of them. */
  readonly #gone = new WeakSet<T>()

  /** Stores a copy of `values`, and answers it, at once. */
  create(values: T): T {
    let last = this.#segments[this.#segments.length - 1]
    if (!last || last.records.length >= SEGMENT) {
      last = { records: [], collection: undefined, handed: 0, ready: Promise.resolve(), copies: undefined }
      this.#segments.push(last)
    }
    const record = new Stored(values) as T
    last.records.push(record)
    this.#count++
    return record
  }

  delete(record: T): void {
    const first = this.#segments[0]
    this.#count--
    if (first?.records[this.#removed] === record) {
      // Only a record the library was given can come back from a query: only it needs marking. A world at
      // its cap removes one record per create, and a WeakSet entry for each is work for every collection.
      if (this.#removed < first.handed) this.#gone.add(record)
      this.#removed++
      // The newest segment stays while it can still take records, so that a create never makes one for one record.
      if (this.#removed === first.records.length && (this.#segments.length > 1 || first.records.length >= SEGMENT)) {
        this.#segments.shift()
        this.#removed = 0
      }
      return
    }
    // Out of that order (which the store never removes in): out of the segment's list, and so out of
    // `all()` and of what a query answers; the library's copy, if it has one, goes with its segment.
    const segment = this.#segments.find((s) => s.records.includes(record))
    if (!segment) return
    const at = segment.records.indexOf(record)
    segment.records.splice(at, 1)
    if (at < segment.handed) {
      this.#gone.add(record)
      segment.handed--
    }
  }

  all(): T[] {
    const [first, ...rest] = this.#segments
    if (!first) return []
    const front = this.#removed > 0 ? first.records.slice(this.#removed) : first.records.slice()
    return rest.length === 0 ? front : front.concat(...rest.map((s) => s.records))
  }

  count(): number {
    return this.#count
  }

  /**
   * The records an @msw/data query finds (all of them without one), oldest first, once the library
   * holds them all; with `first`, only the oldest of them (the later segments are not asked).
   */
  async query(query?: RecordQuery<T>, first = false): Promise<T[]> {
    const segments = [...this.#segments]
    const handing = segments.map((segment, at) => this.#handOver(segment, at === 0 ? this.#removed : 0))
    try {
      await Promise.all(handing)
    } catch (error) {
      throw new Error(
        `@msw/data failed to hold a record the store took (${describeError(error)}). This is a bug in relay-mock; please report it.`,
        { cause: error },
      )
    }
    // The records another query is handing over at the same time.
    await Promise.all(segments.map((segment) => segment.ready))
    // What was removed in the meantime, or counted off the front, is no longer the kind's.
    const found: T[] = []
    for (const segment of segments) {
      const matches = (segment.collection?.findMany(query as Parameters<Collection<Typed<T>>['findMany']>[0]) ??
        []) as T[]
      for (const match of matches) {
        const record = segment.copies?.get(match) ?? match
        if (this.#gone.has(record)) continue
        found.push(record)
        if (first) return found
      }
    }
    return found
  }

  /**
   * Gives a segment's collection the records it does not hold yet (none of the `removed` at its front);
   * the promise of those creates. A failure is this hand-off's alone: the segment stays ready for the
   * next query.
   */
  #handOver(segment: Segment<T>, removed: number): Promise<unknown> {
    const from = Math.max(segment.handed, removed)
    const to = segment.records.length
    segment.handed = to
    if (from >= to) return segment.ready
    const collection = (segment.collection ??= new Collection({ schema: this.#schema }))
    const creates: Array<Promise<unknown>> = []
    for (let i = from; i < to; i++) {
      const record = segment.records[i]
      let given = record
      if (!Object.isExtensible(record)) {
        given = new Stored(record) as T
        ;(segment.copies ??= new WeakMap()).set(given, record)
      }
      creates.push(collection.create(given))
    }
    const handing = Promise.all(creates)
    segment.ready = Promise.all([segment.ready, handing.catch(() => undefined)])
    return handing
  }
}
