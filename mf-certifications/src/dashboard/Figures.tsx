import type { Figure } from './cards.ts'

/** A card's figures; a coloured figure also says what it is in its label (never colour alone), and a measure says what it counts. */
export const Figures = ({ figures }: { figures: readonly Figure[] }) => (
  <dl className="ct-figures">
    {figures.map((f) => {
      const helpId = f.help ? `figure-help-${f.label.replace(/\W+/g, '-').toLowerCase()}` : undefined
      return (
        <div key={f.label}>
          <dt>{f.label}</dt>
          <dd aria-describedby={helpId}>{f.tone ? <span className={`ct-badge ct-tone--${f.tone}`}>{f.value}</span> : f.value}</dd>
          {f.help ? (
            <dd id={helpId} className="pk-muted ct-figure-help">
              {f.help}
            </dd>
          ) : null}
        </div>
      )
    })}
  </dl>
)
