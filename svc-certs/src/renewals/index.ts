/** Certifications renewed by completing a course or passing an exam (issue 24): the consumer of learning's completions. */
export { COMPLETIONS_CONSUMER, createCompletionHandler, subscribeCompletions } from './completion.consumer.ts'
