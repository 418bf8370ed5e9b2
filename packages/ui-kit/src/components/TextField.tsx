import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string
  error?: string | null
  hint?: ReactNode
  /** Rendered after the input on the same row (e.g. a show/hide toggle). */
  adornment?: ReactNode
  ref?: Ref<HTMLInputElement>
}

/** A labelled input; error and hint texts are tied to it by aria-describedby, before any ids given in `aria-describedby`. */
export const TextField = ({ label, error, hint, adornment, 'aria-describedby': described, ...rest }: TextFieldProps) => {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [error ? errorId : null, hint ? hintId : null, described].filter(Boolean).join(' ') || undefined
  const input = <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...rest} />
  return (
    <div className="pk-field">
      <label htmlFor={id}>{label}</label>
      {adornment ? (
        <div className="pk-input-row">
          {input}
          {adornment}
        </div>
      ) : (
        input
      )}
      {hint ? (
        <span id={hintId} className="pk-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="pk-error">
          {error}
        </span>
      ) : null}
    </div>
  )
}
