import type { Figure } from './cards.ts'

/** A card's figures; a coloured figure also says what it is in its label (never colour alone). */
export const Figures = ({ figures }: { figures: readonly Figure[] }) => (
  <dl className="ct-figures">
    {figures.map((f) => (
      <div key={f.label}>
        <dt>{f.label}</dt>
        <dd>{f.tone ? <span className={`ct-badge ct-tone--${f.tone}`}>{f.value}</span> : f.value}</dd>
      </div>
    ))}
  </dl>
)
