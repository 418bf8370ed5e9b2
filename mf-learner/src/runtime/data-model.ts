import { SCORM_LIMITS } from '@portal/contracts'

/*
 * Where scorm-again (3.4.3) is looser or stricter than the SCORM data model, the session facade
 * asks this module first (decision 0032: a thin layer of ours, not a fork; each rule is a fix to
 * offer upstream). Every rule names the standard's clause it follows.
 *
 * SCORM 1.2 (RTE 3.4), where scorm-again accepts or normalizes what must be refused with 405:
 * - cmi.core.session_time is a CMITimespan, HHHH:MM:SS.SS with 2 to 4 digits of hours ("1:00:00" is not);
 * - cmi.core.exit is one of "time-out", "suspend", "logout" or empty ("normal" is not: scorm-again
 *   stores it as empty);
 * - identifiers (cmi.interactions.n.id, cmi.objectives.n.id) are CMIIdentifiers: no white space;
 * - cmi.interactions.n.result is correct, wrong, unanticipated, neutral or a number ("incorrect" is
 *   not: scorm-again stores it as wrong);
 * - a true-false interaction's student_response and correct_responses patterns are 0, 1, t or f;
 * - cmi.suspend_data holds at most 64,000 characters (DESIGN.md: 1.2 too, past the standard's
 *   4,096); scorm-again takes longer text, which a commit would then be refused for.
 * And reads: cmi.core.total_time and cmi.student_data.max_time_allowed are CMITimespans with four
 * digits of hours (0000:00:00 before any time was recorded).
 *
 * SCORM 2004 (RTE 4.1.1.6, 4.2): timestamps may carry a time zone designator (Z, +02:00), which
 * scorm-again refuses; cmi.session_time is an ISO 8601 duration whose hours, minutes and seconds
 * follow a T ("P1H" is refused with 406, scorm-again accepts it); adl.nav.request can be read;
 * cmi.suspend_data past 64,000 characters (its smallest permitted maximum, which the portal keeps)
 * is refused with 406 rather than stored in part.
 */

/** SCORM 1.2 "Incorrect Data Type". */
export const TYPE_MISMATCH_12 = 405
/** SCORM 2004 "Data Model Element Type Mismatch". */
export const TYPE_MISMATCH_2004 = 406

const TIMESPAN_12 = /^(\d{2,4}):(\d{2}):(\d{2})(\.\d{1,2})?$/
const EXIT_12 = new Set(['', 'time-out', 'suspend', 'logout'])
const IDENTIFIER_12 = /^[!-~]{1,255}$/
const RESULT_12 = /^(correct|wrong|unanticipated|neutral|-?\d+(\.\d+)?)$/
const TRUE_FALSE_12 = new Set(['0', '1', 't', 'f'])

/** What the facade reads of the 1.2 data model to check a Set (the interaction's type). */
export interface Model12 {
  interactionType(index: number): string
}

/**
 * The 1.2 error code a Set of `value` to `element` must fail with, or null when scorm-again may
 * take it (it still checks everything else).
 */
export function refusal12(element: string, value: string, model: Model12): number | null {
  if (element === 'cmi.core.session_time') return TIMESPAN_12.test(value) ? null : TYPE_MISMATCH_12
  if (element === 'cmi.core.exit') return EXIT_12.has(value) ? null : TYPE_MISMATCH_12
  if (element === 'cmi.suspend_data') return value.length <= SCORM_LIMITS.suspendData ? null : TYPE_MISMATCH_12
  if (/^cmi\.(interactions|objectives)\.\d+\.id$/.test(element) || /^cmi\.interactions\.\d+\.objectives\.\d+\.id$/.test(element))
    return IDENTIFIER_12.test(value) ? null : TYPE_MISMATCH_12
  const interaction = /^cmi\.interactions\.(\d+)\.(result|student_response|correct_responses\.\d+\.pattern)$/.exec(element)
  if (!interaction) return null
  if (interaction[2] === 'result') return RESULT_12.test(value) ? null : TYPE_MISMATCH_12
  if (model.interactionType(Number(interaction[1])) === 'true-false') return TRUE_FALSE_12.has(value) ? null : TYPE_MISMATCH_12
  return null
}

/** A 1.2 timespan as the standard writes it: four digits of hours; empty stays empty. */
export function timespan12(value: string): string {
  const m = TIMESPAN_12.exec(value)
  return m ? `${m[1]!.padStart(4, '0')}:${m[2]}:${m[3]}${m[4] ?? ''}` : value
}

/** 1.2 elements read as CMITimespans, and what each reads before it has a value. */
export const TIMESPAN_READS_12: Readonly<Record<string, string>> = {
  'cmi.core.total_time': '0000:00:00',
  'cmi.student_data.max_time_allowed': '',
}

/** ISO 8601 duration as SCORM 2004 takes it (RTE 4.1.1.6 timeinterval (second,10,2)). */
const DURATION_2004 = /^P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d{1,2})?S)?)?$/
/** time (second,10,0): a date and time with an optional time zone designator. */
const TIME_2004 = /^(\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2}(?:\.\d{1,2})?)?)?)?)?)?)(Z|[+-]\d{2}(?::\d{2})?)?$/
/** Elements of type time (second,10,0). */
const TIME_ELEMENTS_2004 = /^cmi\.(interactions\.\d+\.timestamp|comments_from_learner\.\d+\.timestamp)$/

/** The 2004 error code a Set must fail with, or null. */
export function refusal2004(element: string, value: string): number | null {
  if (element === 'cmi.session_time') return DURATION_2004.test(value) ? null : TYPE_MISMATCH_2004
  if (element === 'cmi.suspend_data') return value.length <= SCORM_LIMITS.suspendData ? null : TYPE_MISMATCH_2004
  return null
}

/**
 * A 2004 time with a time zone designator, split into what scorm-again validates (the time
 * without it) and the value to keep; null when the element is not a time or the value has no
 * designator (scorm-again checks it as it is).
 */
export function zonedTime2004(element: string, value: string): { check: string; keep: string } | null {
  if (!TIME_ELEMENTS_2004.test(element)) return null
  const m = TIME_2004.exec(value)
  if (!m || !m[2]) return null
  return { check: m[1]!, keep: value }
}
