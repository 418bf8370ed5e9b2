export type { LaunchClaims, LaunchTokens } from './launch-tokens.ts'
export { shuffle } from './shuffle.ts'
