/** Saves a Blob (a proof, an export) under `name` through a temporary link. */
export const saveBlob = (blob: Blob, name: string): void => {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
