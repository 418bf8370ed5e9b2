// The admin's Learning Record Store section (issue 26): where statements out sends the portal's learning events.
export { LrsForwardingSection } from './LrsForwardingSection.tsx'
export { lrsForwardingKeys } from './data/apiHooks.ts'
