import type { ButtonHTMLAttributes, Ref } from 'react'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'link'
  size?: 'normal' | 'small'
  ref?: Ref<HTMLButtonElement>
}

/** A button; `type` defaults to "button" so it never submits a form by accident. */
export const Button = ({ variant = 'primary', size = 'normal', className, type = 'button', ...rest }: ButtonProps) => (
  <button type={type} className={['pk-btn', variant !== 'primary' && `pk-btn--${variant}`, size === 'small' && 'pk-btn--small', className].filter(Boolean).join(' ')} {...rest} />
)
