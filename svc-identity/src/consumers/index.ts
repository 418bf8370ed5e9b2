export { createBackfillHandler, subscribeBackfillRequests } from './backfill.consumer.ts'
