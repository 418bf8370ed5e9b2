import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useState } from 'react'

/** Whether the tab shows its list, the Add form or the Edit form of one item. */
export type Editing<T> = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; item: T }

/**
 * What an authoring tab (Exams, Courses) keeps besides its list: the item being edited, deleted
 * (after confirmation) or assigned, the last notice, and the delete call, which refreshes the list.
 */
export function useAuthoringTab<T extends { id: number }>(opts: { allKey: QueryKey; remove: (id: number) => Promise<unknown>; deletedNotice: string }) {
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing<T>>({ mode: 'closed' })
  const [toDelete, setToDelete] = useState<T | null>(null)
  const [toAssign, setToAssign] = useState<T | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: opts.allKey })
  const remove = useMutation({
    mutationFn: opts.remove,
    onSuccess: async () => {
      setToDelete(null)
      setNotice(opts.deletedNotice)
      await refresh()
    },
  })
  return { queryClient, editing, setEditing, toDelete, setToDelete, toAssign, setToAssign, notice, setNotice, refresh, remove }
}
