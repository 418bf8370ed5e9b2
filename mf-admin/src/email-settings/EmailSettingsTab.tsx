import { Button } from '@portal/ui-kit'
import { useState } from 'react'
import { AdminEmailsDialog } from './AdminEmailsDialog.tsx'
import { LrsForwardingSection } from '../lrs-forwarding/index.ts'

/** Email Settings tab (admin §2): Manage Global Admin Emails, and where group e-mails live; the Learning Record Store statements go to (issue 26). */
export const EmailSettingsTab = () => {
  const [open, setOpen] = useState(false)
  return (
    <div className="pk-stack">
      <h2>Email Settings</h2>
      <p>Global admin emails are told when a learner completes an exam or a course.</p>
      <div>
        <Button onClick={() => setOpen(true)}>Manage Global Admin Emails</Button>
      </div>
      <p className="pk-muted">Group-specific emails are configured in the Groups tab.</p>
      {open ? <AdminEmailsDialog onClose={() => setOpen(false)} /> : null}
      {/* Statements out (issue 26): the external learning record store. */}
      <LrsForwardingSection />
    </div>
  )
}
