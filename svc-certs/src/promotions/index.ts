/** What other features use of tier promotions. */
export type { PromotionService } from './promotion.service.ts'
