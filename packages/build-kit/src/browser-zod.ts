import { z as zod } from 'zod/v4'

/**
 * The zod every browser build shares: the shell loads it on its first page, and a remote takes
 * the shell's copy instead of shipping its own (27 KB gzip a remote, twice on the learner
 * dashboard). A shared module cannot be tree-shaken by its consumers, and the whole `z` namespace
 * (every locale, JSON Schema, the compiler) is 88 KB, so what is shared is this: the `z` functions
 * the portal's browser code calls (build-kit's test keeps the list complete), with zod's own
 * schema classes and English messages behind them. Servers import zod itself.
 */
export const z = {
  array: zod.array,
  boolean: zod.boolean,
  coerce: zod.coerce,
  discriminatedUnion: zod.discriminatedUnion,
  email: zod.email,
  enum: zod.enum,
  iso: zod.iso,
  lazy: zod.lazy,
  literal: zod.literal,
  null: zod.null,
  number: zod.number,
  object: zod.object,
  preprocess: zod.preprocess,
  record: zod.record,
  string: zod.string,
  union: zod.union,
  unknown: zod.unknown,
  url: zod.url,
  uuid: zod.uuid,
}
