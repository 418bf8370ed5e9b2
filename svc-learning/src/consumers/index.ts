export { createLearningUsers } from './identity.consumer.ts'
