import { Alert, Button, type Announcement } from '@portal/ui-kit'
import type { Ref } from 'react'

/** The top of an authoring tab: its heading, the Add button, the last notice and a failed delete. */
export const AuthoringHeader = (p: {
  title: string
  addLabel: string
  addRef: Ref<HTMLButtonElement>
  onAdd: () => void
  notice: Announcement | null
  deleteError: string | null
}) => (
  <>
    <div className="pk-row pk-between">
      <h2 className="pk-m0">{p.title}</h2>
      <Button ref={p.addRef} onClick={p.onAdd}>
        {p.addLabel}
      </Button>
    </div>
    {/*
      The status region stays in the page (one inserted with its text is often not read, and focus
      moves at the same time); each notice is a new node, so "Course deleted." twice is read twice.
    */}
    <div role="status" className="pk-live">
      {p.notice ? (
        <div key={p.notice.id} className="pk-alert pk-alert--success">
          {p.notice.text}
        </div>
      ) : null}
    </div>
    {p.deleteError ? <Alert>{p.deleteError}</Alert> : null}
  </>
)
