// What the course viewer shares with the content player: the message protocol between the two
// windows (protocol.ts). The player's page itself is its own entry (main.ts), never imported.
export { connect, fromFrame, hello, isPlayerHello, type PlayerEvent, type ViewerCommand, type WindowMessage } from './protocol.ts'
export { CMI5_RETURN_TYPE } from './cmi5-return.ts'
