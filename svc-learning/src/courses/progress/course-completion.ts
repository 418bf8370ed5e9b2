/**
 * "A course is complete while every one of its modules is" (learner §4), the one rule: a course
 * without modules is never complete, and a module added after the learner finished makes it in
 * progress again. TypeScript and SQL say it over the same counts (its test checks they agree).
 */
export const allModulesComplete = (total: number, done: number): boolean => total > 0 && done === total

/** The rule in SQL, over the expressions `total` (the course's modules) and `done` (those complete). */
export const allModulesCompleteSql = (total: string, done: string) => `(${total} > 0 and ${done} = ${total})`

/** SQL condition: the learner `user` has completed every module of the course `course` (both SQL expressions). */
export const courseCompleteSql = (user: string, course: string) =>
  `(select ${allModulesCompleteSql('count(*)', 'count(mp.completed_at)')} from course_modules cm
     left join module_progress mp on mp.module_id = cm.id and mp.user_id = ${user} where cm.course_id = ${course})`
