// The order an attempt shows a question's options in (decision 0045). Pure: no I/O, no clock.
import type { Answer, Question } from '@portal/contracts'
import { shuffle } from '../shared/index.ts'

/**
 * The order an attempt shows one question's options in: the pool index of the option at each
 * position (a permutation of 0..n-1). Null for attempts started before shuffling: the pool's order.
 */
export type OptionOrder = number[]

const poolOrder = (n: number): OptionOrder => Array.from({ length: n }, (_, i) => i)

/**
 * The order an attempt shows `q` in: drawn uniformly with a cryptographic random source when the
 * exam shuffles and the question does not keep its order, else the pool's.
 */
export const drawOptionOrder = (q: Pick<Question, 'options' | 'keep_option_order'>, shuffleOptions: boolean): OptionOrder =>
  shuffleOptions && !q.keep_option_order ? shuffle(poolOrder(q.options.length)) : poolOrder(q.options.length)

/** The options in the order shown. */
export const shownOptions = <T>(options: readonly T[], order: OptionOrder | null | undefined): T[] => (order ? order.map((i) => options[i]!) : [...options])

/** An answer given in the order shown, as pool indexes (multi_select: each mapped, then sorted); -1 stays -1. */
export function toPoolAnswer(answer: Answer, order: OptionOrder | null | undefined): Answer {
  if (!order) return answer
  if (Array.isArray(answer)) return answer.map((i) => order[i]!).sort((a, b) => a - b)
  return answer < 0 ? answer : order[answer]!
}

/** Pool indexes (a correct answer) as indexes into the order shown (multi_select: sorted). */
export function toShownAnswer(answer: number | number[], order: OptionOrder | null | undefined): number | number[] {
  if (!order) return answer
  const at = (i: number) => order.indexOf(i)
  if (Array.isArray(answer)) return answer.map(at).sort((a, b) => a - b)
  return answer < 0 ? answer : at(answer)
}
