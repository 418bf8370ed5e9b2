import type { CSSProperties, ReactNode } from 'react'

export interface CardGridProps {
  children: ReactNode
  /** A list of cards (`ul`, each card an `li`) or a plain grid (`div`). */
  as?: 'ul' | 'div'
  /** The narrowest a card may get before the grid drops a column, in pixels (240 by default). */
  min?: number
  className?: string
  'aria-label'?: string
  'aria-labelledby'?: string
}

/** Cards in as many equal columns as fit, one on a phone. */
export const CardGrid = ({ children, as: Tag = 'div', min, className, ...aria }: CardGridProps) => (
  <Tag
    className={['pk-grid', Tag === 'ul' && 'pk-plain-list', className].filter(Boolean).join(' ')}
    // The column width is the caller's number: the one thing here a class cannot carry.
    style={min ? ({ '--pk-grid-min': `${min}px` } as CSSProperties) : undefined}
    {...aria}
  >
    {children}
  </Tag>
)
