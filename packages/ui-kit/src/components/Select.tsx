import { useId, type SelectHTMLAttributes } from 'react'

export interface SelectOption {
  value: string
  label: string
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string
  options: readonly SelectOption[]
  /** Text of an empty first option (value ""), e.g. "Select a branch". */
  placeholder?: string
  error?: string | null
  /** Hide the label visually (still read by screen readers), e.g. inside a table cell. */
  hideLabel?: boolean
}

/** A labelled native select. */
export const Select = ({ label, options, placeholder, error, hideLabel, ...rest }: SelectProps) => {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="pk-field">
      <label htmlFor={id} className={hideLabel ? 'pk-visually-hidden' : undefined}>
        {label}
      </label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...rest}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <span id={errorId} className="pk-error">
          {error}
        </span>
      ) : null}
    </div>
  )
}
