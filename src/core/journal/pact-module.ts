// `journal.toPact`'s export, imported statically: the sources and the Node build. The browser build swaps this file
// for `pact-module-browser.ts` (rolldown.config.ts): the export weighs 1.8 kB gzipped, which every setupWorker page
// would carry for a call made in Node (`npm run size` measured 61.1 kB against the 60 kB budget with it).
export { toPact } from './pact-export.ts'
