// Test support for the features' tests: rendering with a query client, reading figures and tables, the API answered at the edge, and contract-shaped fixtures.
export { bodyRows, figure, renderWithClient } from './dom.tsx'
export { answerApi, holdRequests, json } from './edge.ts'
export { brief, certifications, certType, held, memberDetail, personAssignment, profile, promotionRequest, revenueRecord, teamRow, TODAY, USER_ID } from './fixtures.ts'
