/** A path the API gave (e.g. a proof's `file_path`) as the client wants it: without the gateway's `/api`. */
export const apiPath = (path: string): string => (path.startsWith('/api/') ? path.slice(4) : path)

/** The same path with `?download=1` (or `&download=1`): the proof comes back as an attachment with its original name. */
export const downloadPath = (path: string): string => `${apiPath(path)}${path.includes('?') ? '&' : '?'}download=1`
