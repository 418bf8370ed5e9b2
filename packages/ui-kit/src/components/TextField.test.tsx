// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { TextField } from './TextField.tsx'

describe('Text field', () => {
  it('is described by its error, its hint and then any ids it is given (a live preview elsewhere in the form)', () => {
    const { unmount } = render(
      <>
        <TextField label="Obtained Date" error="Required" hint="Optional." aria-describedby="preview" />
        <p id="preview">Expires Nov 20, 2028</p>
      </>,
    )
    const field = screen.getByRole('textbox', { name: 'Obtained Date' })
    expect(field.getAttribute('aria-describedby')!.split(' ')).toHaveLength(3)
    expect(screen.getByRole('textbox', { name: 'Obtained Date', description: 'Required Optional. Expires Nov 20, 2028' })).toBe(field)
    unmount()

    const { rerender } = render(
      <>
        <TextField label="Name" aria-describedby="preview" />
        <p id="preview">Expires Nov 20, 2028</p>
      </>,
    )
    expect(screen.getByRole('textbox', { name: 'Name', description: 'Expires Nov 20, 2028' })).toBeTruthy()
    rerender(<TextField label="Name" />)
    const plain = screen.getByRole('textbox', { name: 'Name', description: '' })
    expect(plain.hasAttribute('aria-describedby')).toBe(false)
  })
})
