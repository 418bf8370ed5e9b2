import { useMutation } from '@tanstack/react-query'

/**
 * Assigns the exam or course to the selected users through `assignTo` (its feature's call); the
 * feature's list is refreshed by `onAssigned`. The learners and groups to pick from come from the
 * users and groups features.
 */
export const useAssign = (assignTo: (userIds: string[]) => Promise<unknown>, onAssigned: () => void) =>
  useMutation({ mutationFn: (userIds: string[]) => assignTo(userIds), onSuccess: onAssigned })
