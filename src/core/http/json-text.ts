/**
 * A body already serialised to JSON: the pipeline sends its text as it is
 * instead of calling `JSON.stringify` again.
 */
export class JsonText {
  readonly text: string
  #byteLength = -1
  constructor(text: string) {
    this.text = text
  }

  /** The text's length in UTF-8 (its `Content-Length`), measured once: a kept page is sent many times. */
  get byteLength(): number {
    if (this.#byteLength === -1) this.#byteLength = utf8Length(this.text)
    return this.#byteLength
  }
}

/** Bytes of a string in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  let length = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) length += 1
    else if (code < 0x800) length += 2
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      length += 4
      index++
    } else length += 3
  }
  return length
}

/**
 * Remembers the JSON text of frozen values (pets: the API never changes a
 * pet), so that a page of pets is the cached texts joined, several times
 * cheaper than serialising its pets anew (test/bench/HISTORY.md, "Figures
 * moved out of source comments"). Lists always start at the lowest id, so few
 * pets are ever listed; the cache still stops growing at `capacity` entries,
 * and `clear()` (on reset) drops what it holds.
 *
 * @example
 * const cache = createJsonCache(10_000)
 * cache.array(store.list({ limit: 20 })).text // the same text as JSON.stringify(...)
 */
export interface JsonCache {
  /** The JSON text of one value, the same as `JSON.stringify(value)`. */
  one(value: object): string
  /** A JSON array of the values, the same text as `JSON.stringify(values)`. */
  array(values: readonly object[]): JsonText
  clear(): void
}

export function createJsonCache(capacity: number): JsonCache {
  let texts = new Map<object, string>()
  const one = (value: object): string => {
    let text = texts.get(value)
    if (text === undefined) {
      text = JSON.stringify(value)
      if (texts.size < capacity) texts.set(value, text)
    }
    return text
  }
  return {
    one,
    array(values) {
      let text = '['
      for (let index = 0; index < values.length; index++) text += index === 0 ? one(values[index]!) : `,${one(values[index]!)}`
      return new JsonText(`${text}]`)
    },
    clear() {
      texts = new Map()
    },
  }
}
