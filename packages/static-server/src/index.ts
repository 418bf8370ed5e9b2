export { serveBuild, sendFile, cacheControlFor } from './static.ts'
export type { ServeBuildOptions } from './static.ts'
