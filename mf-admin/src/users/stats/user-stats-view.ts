import { examScoreColour, type UserStats } from '@portal/contracts'

export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'grey'

/** Course progress badge of the history (admin §4): Completed, else the percent above 0, else Not Started. */
export function courseProgressBadge(entry: Pick<UserStats['courseHistory'][number], 'progress' | 'completedAt'>): { label: string; tone: Tone } {
  if (entry.completedAt) return { label: 'Completed', tone: 'green' }
  if (entry.progress > 0) return { label: `${Math.round(entry.progress)}% Complete`, tone: 'blue' }
  return { label: 'Not Started', tone: 'grey' }
}

/** An exam score's badge: colour by admin §9 (70 green, 60 yellow, else red). */
export const scoreBadge = (score: number): { label: string; tone: Tone } => ({ label: formatPercent(score), tone: examScoreColour(score) })

/** Percent with at most one decimal (85, 72.5). */
export const formatPercent = (n: number) => `${Math.round(n * 10) / 10}%`

/** A percent figure of `count` things, or null when there are none (no exams: no average, not "0%"). */
export const percentOf = (n: number, count: number): string | null => (count === 0 ? null : formatPercent(n))
