/**
 * The team's colour scales and number formats (learner §9), apart from the team's schemas: the
 * technician profile shows a rev/pay ratio on its first screen without loading them.
 */

export type ScaleColour = 'green' | 'yellow' | 'orange' | 'red'
/** Rev/pay ratio colour (learner §9): ≥ 35 green, ≥ 30 yellow, ≥ 25 orange, else red. */
export const ratioColour = (ratio: number): ScaleColour => (ratio >= 35 ? 'green' : ratio >= 30 ? 'yellow' : ratio >= 25 ? 'orange' : 'red')
/** Team progress colour (learner §9): ≥ 100 green, ≥ 75 yellow, ≥ 50 orange, else red. */
export const progressColour = (percent: number): ScaleColour => (percent >= 100 ? 'green' : percent >= 75 ? 'yellow' : percent >= 50 ? 'orange' : 'red')
/** USD with two decimals (learner §9). */
export const formatUsd = (amount: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)
/** A ratio with two decimals. */
export const formatRatio = (ratio: number): string => ratio.toFixed(2)
