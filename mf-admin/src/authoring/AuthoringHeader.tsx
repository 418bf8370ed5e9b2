import { Alert, Button } from '@portal/ui-kit'

/** The top of an authoring tab: its heading, the Add button, the last notice and a failed delete. */
export const AuthoringHeader = (p: { title: string; addLabel: string; onAdd: () => void; notice: string | null; deleteError: string | null }) => (
  <>
    <div className="pk-row" style={{ justifyContent: 'space-between' }}>
      <h2 style={{ margin: 0 }}>{p.title}</h2>
      <Button onClick={p.onAdd}>{p.addLabel}</Button>
    </div>
    {p.notice ? <Alert tone="success">{p.notice}</Alert> : null}
    {p.deleteError ? <Alert>{p.deleteError}</Alert> : null}
  </>
)
