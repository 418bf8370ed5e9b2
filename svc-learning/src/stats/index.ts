export { statsRoutes } from './stats.routes.ts'
export { createStatsService } from './stats.service.ts'
