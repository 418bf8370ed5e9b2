import { z } from 'zod'

/** A numeric id in a path or body (a positive 32-bit integer, as the tables store it); `Invalid <what> id` otherwise. */
export const numericId = (what: string) => {
  const message = `Invalid ${what} id`
  return z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message)
}

/** The `{id}` path parameter of `what` (course, module, exam, ...). */
export const IdParamOf = (what: string) => z.object({ id: numericId(what) })

/** A whole number from `min` to `max` in a JSON body, with one `message` for every way it can be wrong. */
export const wholeNumber = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message)

/** A whole-number query parameter from `min` to `max`: `{name} must be a whole number from {min} to {max}` otherwise. */
export const wholeNumberParam = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message)
}

/** A field's error: `missing` when it is absent or null, `wrongKind` when it holds a value of another type. */
export const missingOr =
  (missing: string, wrongKind: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? missing : wrongKind
