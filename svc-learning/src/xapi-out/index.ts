// Statements out (issue 26): learning's events sent to an external LRS as xAPI 1.0.3 statements,
// through a durable consumer and a queue that waits for a down LRS (migration 0017).
export { lrsForwardingRoutes } from './xapi-out.routes.ts'
export { createXapiOutService, resealLrsPassword, type XapiOutService } from './xapi-out.service.ts'
export { XAPI_OUT_CONSUMER, createForwardHandler, createStatementSender, forwardQueueMetrics, subscribeForwarding, type SenderOptions } from './forwarder.ts'
export { FORWARDED_EVENTS, accountAgent, activityIri, statementIdOf, statementOf, uuidV5, VERBS, type StatementSetting, type XapiStatementOut } from './statements.ts'
