// The users feature's public face: the users and the user groups (identity's), and how learners are
// filtered and picked (the assign dialog). The Users tab (users/UsersTab.tsx, with its dialogs) loads
// lazily when opened.
export { userKeys, useCreateGroup, useUserGroups, useUsers } from './data/apiHooks.ts'
export { filterLearners, personOf, selectionSummary, toggleIn, type LearnerFilter } from './filter.ts'
