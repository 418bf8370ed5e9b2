export { seedDemoData } from './demo-data.ts'
export type { DemoLogin, SeedTarget } from './demo-data.ts'
