// What the course and exam tabs share for authoring: the header with its Add button and the add/edit/delete dialog state with focus targets.
export { AuthoringHeader } from './AuthoringHeader.tsx'
export { ADD_TARGET, deleteTarget, editTarget, useAuthoringTab } from './useAuthoringTab.ts'
