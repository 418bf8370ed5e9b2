import type { CompletionTrigger } from '@portal/contracts'

/**
 * "Completion is triggered only once per module load" (learner §4). One guard lives as long as one
 * load of a module: while a completion request is in flight every other trigger is dropped; once
 * recorded, all are. A trigger the server refused (engagement rule, 422) is not tried again in the
 * same load, except the learner's own Mark as Complete; a failed call (network) may be retried.
 */
export class CompletionGuard {
  private state: 'idle' | 'pending' | 'done' = 'idle'
  private readonly refused = new Set<CompletionTrigger>()

  /** True when this trigger may ask for completion now; the guard is then pending. */
  begin(trigger: CompletionTrigger): boolean {
    if (this.state !== 'idle') return false
    if (trigger !== 'manual' && this.refused.has(trigger)) return false
    this.state = 'pending'
    return true
  }

  /** The completion was recorded: nothing more in this load. */
  succeeded(): void {
    this.state = 'done'
  }

  /** The server refused this trigger (engagement rule): the others may still ask. */
  refusedBy(trigger: CompletionTrigger): void {
    this.refused.add(trigger)
    if (this.state === 'pending') this.state = 'idle'
  }

  /** The request failed without an answer about the rule: any trigger may ask again. */
  failed(): void {
    if (this.state === 'pending') this.state = 'idle'
  }

  get done(): boolean {
    return this.state === 'done'
  }

  get pending(): boolean {
    return this.state === 'pending'
  }
}
