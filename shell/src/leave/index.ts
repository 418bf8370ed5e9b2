// The leave guards as the pages and the layout reach them (the provider and the guarded history are wired in bootstrap.tsx).
export { useLeaveGuards } from './LeaveGuardProvider.tsx'
