export { startNotifyStack } from './notify-stack.ts'
export { eventually, startSmtpReceiver } from './smtp-receiver.ts'
