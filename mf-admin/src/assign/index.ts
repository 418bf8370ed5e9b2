// The assign feature's public face: the dialog that assigns an exam or a course to learners. The
// Exams tab loads it lazily, when Assign is first pressed (this file adds nothing to its chunk).
export { AssignDialog, type AssignDialogProps } from './AssignDialog.tsx'
