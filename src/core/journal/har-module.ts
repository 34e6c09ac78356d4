// `journal.toHar`'s export, imported statically: the sources and the Node build. The browser build swaps this file
// for `har-module-browser.ts` (rolldown.config.ts): the whole-journal HAR weighs on every setupWorker page, where
// the browser's own developer tools already record the same exchanges (Network: "Save all as HAR"), and a page that
// mounts the control handlers still answers `GET /__sim/requests.har` (issue #26 put the page over its 60 kB budget;
// the weights: test/bench/HISTORY.md, "Figures moved out of source comments").
export { toHar } from './journal-har.ts'
