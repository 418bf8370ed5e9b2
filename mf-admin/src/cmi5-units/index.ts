// A learner's cmi5 units (issue 26): their AU statuses in each cmi5 module of their courses, and
// the admin's waiver of a unit (shown in the Users tab's statistics dialog).
export { Cmi5UnitsSection, type Cmi5UnitsSectionProps } from './Cmi5UnitsSection.tsx'
export { cmi5UnitKeys } from './data/apiHooks.ts'
