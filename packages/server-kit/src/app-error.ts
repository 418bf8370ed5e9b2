import type { ErrorBody } from '@portal/contracts'

/** What an error answer may carry beside its message and code. */
export type Extra = Partial<Pick<ErrorBody, 'details' | 'expired' | 'requiresVerification' | 'userId'>>

/** An expected failure with its HTTP status and stable code; turned into the one error shape. */
export class AppError extends Error {
  readonly status: number
  readonly code: string
  readonly extra: Extra
  readonly headers: Record<string, string>
  constructor(status: number, code: string, message: string, extra: Extra = {}, headers: Record<string, string> = {}) {
    super(message)
    this.status = status
    this.code = code
    this.extra = extra
    this.headers = headers
  }
}
