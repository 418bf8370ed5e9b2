export { requireAssignable, requireReadableUser } from './user-access.ts'
