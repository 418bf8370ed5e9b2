import { describe, expect, it } from 'vitest'
import {
  companyEmailError,
  confirmPasswordError,
  isCompleteVerificationCode,
  liveCompanyEmailError,
  newPasswordError,
  registrationPasswordError,
  resendHint,
  sanitizeVerificationCode,
} from './validation.ts'

describe('company e-mail domain', () => {
  it('accepts the company domain in any case', () => {
    expect(companyEmailError('Ann@Example.COM', 'example.com')).toBeNull()
  })
  it('rejects another domain with the spec message', () => {
    expect(companyEmailError('ann@gmail.com', 'example.com')).toBe('Registration is limited to employees (@example.com email addresses only)')
  })
  it('rejects a look-alike domain', () => {
    expect(companyEmailError('ann@notexample.com', 'example.com')).not.toBeNull()
  })
  it('waits for an @ while typing', () => {
    expect(liveCompanyEmailError('ann', 'example.com')).toBeNull()
    expect(liveCompanyEmailError('ann@g', 'example.com')).not.toBeNull()
  })
})

describe('passwords', () => {
  it('applies the reset rules at registration too', () => {
    expect(registrationPasswordError('')).toBe('Password is required')
    expect(registrationPasswordError('short')).toBe('Password must be at least 8 characters long')
    expect(registrationPasswordError('longenough')).toBe('Password must contain at least one uppercase letter')
    expect(registrationPasswordError('LONGENOUGH1')).toBe('Password must contain at least one lowercase letter')
    expect(registrationPasswordError('Longenough')).toBe('Password must contain at least one number')
    expect(registrationPasswordError('Longenough1')).toBeNull()
  })
  it('applies the reset rules in order', () => {
    expect(newPasswordError('Ab1')).toBe('Password must be at least 8 characters long')
    expect(newPasswordError('ABCDEFG1')).toBe('Password must contain at least one lowercase letter')
    expect(newPasswordError('abcdefg1')).toBe('Password must contain at least one uppercase letter')
    expect(newPasswordError('Abcdefgh')).toBe('Password must contain at least one number')
    expect(newPasswordError('Abcdefg1')).toBeNull()
  })
  it('needs the confirmation to match', () => {
    expect(confirmPasswordError('Abcdefg1', 'Abcdefg2')).toBe('Passwords do not match')
    expect(confirmPasswordError('Abcdefg1', 'Abcdefg1')).toBeNull()
  })
})

describe('verification code', () => {
  it('keeps digits only, at most 6', () => {
    expect(sanitizeVerificationCode('12a3 4-5678')).toBe('123456')
  })
  it('rejects a 7-digit or 5-digit code', () => {
    expect(isCompleteVerificationCode('1234567')).toBe(false)
    expect(isCompleteVerificationCode('12345')).toBe(false)
    expect(isCompleteVerificationCode('123456')).toBe(true)
  })
})

describe('resend hint', () => {
  it('counts down to when a new code can be asked for, then says how', () => {
    expect(resendHint(30)).toBe('You can ask for a new code in 30 seconds.')
    expect(resendHint(1)).toBe('You can ask for a new code in 1 second.')
    expect(resendHint(0)).toBe('No code? Check your spam folder, or ask for a new one.')
  })
})
