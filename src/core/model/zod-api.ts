// The part of zod/mini the package uses, in one list: what `loadZod()` gives, statically (`zod-module.ts`) or loaded on
// demand in Node (`node/zod-bundle.ts` bundles exactly this). English is zod's only locale here: the Error bodies'
// messages are English, and the other locales are half a megabyte.
export {
  array,
  boolean,
  custom,
  enum,
  extend,
  gt,
  int,
  literal,
  looseObject,
  lte,
  maximum,
  minimum,
  minLength,
  nullable,
  number,
  object,
  optional,
  record,
  refine,
  regex,
  required,
  startsWith,
  strictObject,
  string,
  union,
  unknown,
} from 'zod/mini'
export { en as englishLocale } from 'zod/locales'
