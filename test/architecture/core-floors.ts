/**
 * The floors of `src/core`, bottom first: a file imports only from its own folder or from a floor below it. Declared
 * once; src/README.md shows the same list (test/architecture/layers.test.ts holds the two equal).
 */
export const coreFloors = [
  'defaults.ts',
  'time',
  'http',
  'model',
  'access',
  'catalogue',
  'journal',
  'operations',
  'contract',
  'grading',
  'faults',
  'pipeline',
  'state',
  'simulator',
] as const
