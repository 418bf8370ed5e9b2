/** A storage key must be a plain relative path: no empty, `.` or `..` segments, no backslashes or NULs. */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 1024 || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return false
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
}

/** Throws unless `key` is a safe storage key (`isSafeKey`). */
export const assertSafeKey = (key: string) => {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`)
}
