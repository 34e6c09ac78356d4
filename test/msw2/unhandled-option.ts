/**
 * msw 3 renamed the option saying what to do with a request no handler
 * answers: `onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3. msw 2
 * ignores the name it does not know and falls back to `'warn'` (its
 * `setupServer` reads `options?.onUnhandledRequest || "warn"`), so a suite
 * written for msw 3 would silently lose `'error'`. The tests run under msw 2
 * pass their msw 3 option through this, and nothing else changes.
 */
export function toMsw2Options<Options extends object>(
  options: Options | undefined,
): Omit<Options, 'onUnhandledFrame'> & { onUnhandledRequest?: unknown } {
  if (options === undefined || !('onUnhandledFrame' in options)) return (options ?? {}) as Options
  const { onUnhandledFrame, ...rest } = options as Options & { onUnhandledFrame: unknown }
  if (typeof onUnhandledFrame !== 'string') {
    throw new TypeError('Only the string strategies of onUnhandledFrame (error, warn, bypass) are translated to msw 2')
  }
  return { ...rest, onUnhandledRequest: onUnhandledFrame }
}
