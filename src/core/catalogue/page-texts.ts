import type { JsonCache, JsonText } from '../http/json-text.ts'
import { petStatuses } from '../model/pet-types.ts'
import type { PetQuery, PetStore } from './pet-store.ts'

/**
 * The JSON text of listPets pages, kept while the store says the page is
 * unchanged (`store.revision`). A page is what most GETs answer, and the
 * same few pages are asked for again and again (they start at the lowest id):
 * serving the kept text spares the page's array, twenty cache lookups and the
 * joined text, garbage on every GET. Kept after issue 38's A/B: without it a
 * GET list allocated more and cost the server more CPU (test/bench/HISTORY.md,
 * "Figures moved out of source comments").
 * test/core/catalogue/page-texts.test.ts holds it to the store's answer.
 */
export interface PageTexts {
  /** The page's JSON array, the same text as `JSON.stringify(store.list(query))`. */
  text(query: PetQuery): JsonText
  clear(): void
}

/**
 * Pages kept at once: a handful of (limit, status) pairs is what clients ask; past it the kept pages are dropped
 * and kept again as asked (a page of 100 pets with 255-character names is some 30 KB of text).
 */
const keptPages = 32

export function createPageTexts(store: PetStore, petJson: JsonCache): PageTexts {
  let pages = new Map<number, { readonly revision: number; readonly text: JsonText }>()
  return {
    text(query) {
      const key = query.limit * (petStatuses.length + 1) + (query.status === undefined ? 0 : petStatuses.indexOf(query.status) + 1)
      const { revision } = store
      const kept = pages.get(key)
      if (kept !== undefined && kept.revision === revision) return kept.text
      const text = petJson.array(store.list(query))
      if (pages.size >= keptPages && kept === undefined) pages = new Map()
      pages.set(key, { revision, text })
      return text
    },
    clear() {
      pages = new Map()
    },
  }
}
