// Test support for the features' tests: rendering with a query client, reading figures and tables, and contract-shaped fixtures.
export { bodyRows, figure, renderWithClient } from './dom.tsx'
export { brief, certifications, certType, held, memberDetail, profile, promotionRequest, revenueRecord, teamRow, TODAY, USER_ID } from './fixtures.ts'
