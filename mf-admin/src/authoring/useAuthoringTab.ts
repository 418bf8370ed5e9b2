import { neighbourAfterRemoval, useFocusTargets, type Announcement } from '@portal/ui-kit'
import { useState } from 'react'

/** Whether the tab shows its list, the Add form or the Edit form of one item. */
export type Editing<T> = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; item: T }

/** Focus target names of the list: the Add button and each row's Edit and Delete buttons. */
export const ADD_TARGET = 'add'
export const editTarget = (id: number) => `edit-${id}`
export const deleteTarget = (id: number) => `delete-${id}`

/**
 * Where focus goes once the Add/Edit form has closed: back to the button that opened it (the Add
 * button when the edited row is gone).
 */
export const targetsAfterClose = (editing: Editing<{ id: number }>): string[] => (editing.mode === 'edit' ? [editTarget(editing.item.id), ADD_TARGET] : [ADD_TARGET])

/** Where focus goes once a deleted item's row has left the list: the next row's Delete, else the previous one's, else Add. */
export const targetsAfterDelete = (ids: readonly number[], deleted: number): string[] => {
  const next = neighbourAfterRemoval(ids, deleted)
  return next === undefined ? [ADD_TARGET] : [deleteTarget(next), ADD_TARGET]
}

/**
 * What an authoring tab (Exams, Courses) keeps besides its list: the item being edited, deleted
 * (after confirmation) or assigned, and the last notice. The list replaces the form and rows come
 * and go, so the tab also says where keyboard focus goes; `afterDelete` is what the tab's delete
 * call (its feature's data hook, which fetches the list again) does first on success.
 */
export function useAuthoringTab<T extends { id: number }>(opts: {
  deletedNotice: string
  /** The ids in the list as shown, to find the row after a deleted one. */
  ids: readonly number[]
}) {
  const { target, focusLater } = useFocusTargets()
  const [editing, setEditing] = useState<Editing<T>>({ mode: 'closed' })
  const [toDelete, setToDelete] = useState<T | null>(null)
  const [toAssign, setToAssign] = useState<T | null>(null)
  const [notice, setNoticeState] = useState<Announcement | null>(null)
  const setNotice = (text: string | null) => setNoticeState((n) => (text === null ? null : { text, id: (n?.id ?? 0) + 1 }))
  const openEditor = (next: Exclude<Editing<T>, { mode: 'closed' }>) => {
    setNotice(null)
    setEditing(next)
  }
  const closeEditor = () => {
    focusLater(...targetsAfterClose(editing))
    setEditing({ mode: 'closed' })
  }
  const afterDelete = (id: number) => {
    // The dialog gives focus back to the deleted row's Delete button, which goes with the next fetch.
    focusLater(...targetsAfterDelete(opts.ids, id))
    setToDelete(null)
    setNotice(opts.deletedNotice)
  }
  return { editing, openEditor, closeEditor, target, toDelete, setToDelete, toAssign, setToAssign, notice, setNotice, afterDelete }
}
