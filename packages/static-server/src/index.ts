export { serveBuild, sendFile, cacheControlFor } from './static.ts'
export type { Rewrite, ServeBuildOptions } from './static.ts'
