/** What other features use of revenue: its reads and the profile's revenue cards. */
export { revenueRepository } from './revenue.repository.ts'
export { addMonths, revenueCards, type RevenueService } from './revenue.service.ts'
