// The LMS side of cmi5 (issue 26, decision 0053): launches, the fetch URL, LaunchData, the LMS's
// statements (Launched, Satisfied, Abandoned, Waived), moveOn and the module's completion.
export { abandonSweepJob, ABANDON_SWEEP_INTERVAL_MS } from './abandon-sweep.ts'
export { cmi5Routes } from './cmi5.routes.ts'
export { CMI5_RUNTIME_MESSAGES, createCmi5Service, FETCH_ERRORS, launchUrl, tokenHash, type Cmi5Service } from './cmi5.service.ts'
export { moveOnMet, satisfiedParts } from './move-on.ts'
export { ACTIVITY_TYPE, CATEGORY, EXT, LAUNCH_DATA_STATE_ID, lmsIds, VERB } from './vocabulary.ts'
