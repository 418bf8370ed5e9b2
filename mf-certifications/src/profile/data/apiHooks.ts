import type { TechnicianProfile, UserCertification } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { TECHNICIAN_KEY, technicianProfileKey } from '../../shared/index.ts'
import { addCertification, deleteCertification, deleteProof, fetchAvailable, fetchProfile, pauseNotifications, resumeNotifications } from '../api.ts'

/** Query keys of the technician profile (a team member's detail sits under `profile`: shared/technician-keys.ts). */
export const profileKeys = {
  all: TECHNICIAN_KEY,
  profile: technicianProfileKey,
  available: (userId: string) => [...profileKeys.all, 'available', userId] as const,
}

/** A technician's profile: their certifications, tier, revenue and what the viewer may change. */
export const useProfile = (userId: string) => useQuery({ queryKey: profileKeys.profile(userId), queryFn: () => fetchProfile(userId) })

/** The certifications the technician may add (Add Certification), fetched while the dialog is open. */
export const useAvailableCertifications = (userId: string, open: boolean) =>
  useQuery({ queryKey: profileKeys.available(userId), queryFn: () => fetchAvailable(userId), enabled: open })

/** Fetches every profile query again: after a certification or a proof was added, replaced or deleted. */
export const useRefreshProfiles = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: profileKeys.all })
}

/** Adds a held certification (Add Certification); the section refreshes the profile once the dialog closes. */
export const useAddCertification = () => useMutation({ mutationFn: addCertification })

/** What a delete on the profile removes: a certification's proof file, or the certification with it. */
export interface ProfileDeletion {
  kind: 'proof' | 'certification'
  cert: UserCertification
}

/** Deletes a proof or a certification; `onDeleted` runs first, then the profiles are fetched again. */
export const useDeleteFromProfile = (onDeleted: (deletion: ProfileDeletion) => void) => {
  const refresh = useRefreshProfiles()
  return useMutation({
    mutationFn: ({ kind, cert }: ProfileDeletion) => (kind === 'proof' ? deleteProof(cert.id) : deleteCertification(cert.id)),
    onSuccess: async (_, deletion) => {
      onDeleted(deletion)
      await refresh()
    },
  })
}

/**
 * Pauses the technician's expiration notifications, or resumes them when paused (own profile); the
 * answer shows at once in the cached profile, which is then fetched again.
 */
export const useToggleNotifications = (profile: TechnicianProfile, onChanged: (paused: boolean, pausedUntil: string | null) => void) => {
  const queryClient = useQueryClient()
  const userId = profile.user.id
  return useMutation({
    mutationFn: () => (profile.tier.notifications_paused ? resumeNotifications(userId) : pauseNotifications(userId)),
    onSuccess: async (answer) => {
      onChanged(answer.notifications_paused, answer.notifications_paused_until)
      queryClient.setQueryData<TechnicianProfile>(profileKeys.profile(userId), (p) =>
        p ? { ...p, tier: { ...p.tier, notifications_paused: answer.notifications_paused, notifications_paused_until: answer.notifications_paused_until } } : p,
      )
      await queryClient.invalidateQueries({ queryKey: profileKeys.profile(userId) })
    },
  })
}
