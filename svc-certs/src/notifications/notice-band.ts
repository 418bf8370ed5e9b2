/**
 * The notice bands in SQL, the same rule as contracts' `isExpired` and `noticeBand` (admin §9
 * "expired below 0"; learner §4 "Expired (expiration passed)"): over an integer expression of the
 * days left, evaluated once per row (a column, not a placeholder). Its test checks they agree.
 */

/** `isExpired` in SQL: the expiration date has passed (the date itself is the last valid day). */
export const expiredSql = (daysLeft: string) => `(${daysLeft} < 0)`

/** `noticeBand` in SQL: 0 once expired, else 7, 14 or 30; null while more than 30 days remain. */
export const noticeBandSql = (daysLeft: string) =>
  `(case when ${expiredSql(daysLeft)} then 0 when ${daysLeft} <= 7 then 7 when ${daysLeft} <= 14 then 14 when ${daysLeft} <= 30 then 30 end)`
