import { NOTIFY_MESSAGES } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { checkForm, emptyForm, formOf } from './admin-email-form.ts'

describe('admin e-mail form', () => {
  it('starts with both notification types on', () => {
    expect(emptyForm()).toEqual({ email: '', name: '', types: ['exam_completion', 'course_completion'] })
  })

  it('requires the e-mail with the spec’s message, then a valid one and a type, each message on its own field', () => {
    expect(checkForm(emptyForm())).toEqual({ ok: false, errors: { email: NOTIFY_MESSAGES.emailRequired } })
    expect(checkForm({ ...emptyForm(), email: 'nope' })).toEqual({ ok: false, errors: { email: NOTIFY_MESSAGES.emailInvalid } })
    expect(checkForm({ ...emptyForm(), email: 'a@acme.test', types: [] })).toEqual({ ok: false, errors: { types: NOTIFY_MESSAGES.typesRequired } })
    expect(checkForm({ ...emptyForm(), email: 'nope', types: [] })).toEqual({ ok: false, errors: { email: NOTIFY_MESSAGES.emailInvalid, types: NOTIFY_MESSAGES.typesRequired } })
  })

  it('sends a blank name as null and keeps an edited row’s facts', () => {
    expect(checkForm({ email: 'a@acme.test', name: '  ', types: ['course_completion'] })).toEqual({
      ok: true,
      body: { email: 'a@acme.test', name: null, notification_types: ['course_completion'] },
    })
    expect(formOf({ id: 1, email: 'b@acme.test', name: null, notification_types: ['exam_completion'], is_active: false, created_at: '' })).toEqual({
      email: 'b@acme.test',
      name: '',
      types: ['exam_completion'],
    })
  })
})
