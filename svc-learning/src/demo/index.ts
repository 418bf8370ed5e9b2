export { seedDemoData } from './demo-data.ts'
export type { SeedTarget } from './demo-data.ts'
