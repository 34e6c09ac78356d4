// `msw/browser` for the page run on msw 2 (browser-worker.msw2-test.ts): msw
// 2's own setupWorker, with msw 3's start option name translated (see unhandled-option.ts).
import { setupWorker as setupWorkerOfMsw2 } from 'msw-2-under-test/browser'
import { toMsw2Options } from './unhandled-option.ts'

export * from 'msw-2-under-test/browser'

export function setupWorker(...handlers: Parameters<typeof setupWorkerOfMsw2>): ReturnType<typeof setupWorkerOfMsw2> {
  const worker = setupWorkerOfMsw2(...handlers)
  const start = worker.start.bind(worker)
  worker.start = (options) => start(toMsw2Options(options))
  return worker
}
