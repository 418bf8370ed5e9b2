// Item analysis of exams (issue 27): kept per-attempt rows filled as attempts are graded
// (migration 0011), aggregated in SQL per exam and question.
export { itemAnalysisRoutes } from './item-analysis.routes.ts'
export { createItemAnalysisService, type ItemAnalysisService } from './item-analysis.service.ts'
export { itemAnalysisRepository, type AnalysisRange } from './item-analysis.repository.ts'
