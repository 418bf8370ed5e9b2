// The groups feature's public face: the notification rules' query keys. The Groups tab
// (groups/GroupsTab.tsx, with the rules and the tracking dialog) loads lazily when opened; the
// groups themselves are the users feature's.
export { ruleKeys } from './data/apiHooks.ts'
