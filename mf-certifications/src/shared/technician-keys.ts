/**
 * The query key of the technician profiles, and of one technician's profile. The profile feature's
 * queries sit under the first; a team member's detail sits under the second, so what the profile's
 * sections change (a proof deleted) refreshes the member's page too.
 */
export const TECHNICIAN_KEY = ['technician'] as const
export const technicianProfileKey = (userId: string) => [...TECHNICIAN_KEY, 'profile', userId] as const
