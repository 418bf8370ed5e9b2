export { createLearningUsers } from './identity.consumer.ts'
export { CERTS_CONSUMER, createCertsHandler, subscribeCerts } from './certs.consumer.ts'
export { GROUPS_CONSUMER, createGroupsHandler, subscribeGroups } from './groups.consumer.ts'
