import { CERT_NOTIFICATION_MESSAGES as M, type NotificationConfig } from '@portal/contracts'
import { Alert, Button, focusFirstInvalid, Modal, TextField } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { useSaveConfig } from './data/apiHooks.ts'
import { CONFIG_EMAIL_FIELDS, configLabel, formFromConfig, saveConfigFailed, validateConfigForm, type ConfigForm } from './notification-view.ts'

/** The Email configuration form (admin §2) of one branch and department, in a dialog. */
export const ConfigDialog = ({
  config,
  onSaved,
  onClose,
}: {
  config: NotificationConfig | null
  onSaved: (saved: NotificationConfig, message: string) => void
  onClose: () => void
}) => (
  <Modal open={config !== null} title={config ? `Edit Configuration: ${configLabel(config)}` : 'Edit Configuration'} onClose={onClose}>
    {config ? <ConfigFormBody key={config.id} config={config} onSaved={onSaved} onClose={onClose} /> : null}
  </Modal>
)

const ConfigFormBody = ({ config, onSaved, onClose }: { config: NotificationConfig; onSaved: (saved: NotificationConfig, message: string) => void; onClose: () => void }) => {
  const [form, setForm] = useState<ConfigForm>(() => formFromConfig(config))
  const [errors, setErrors] = useState<Partial<Record<keyof ConfigForm, string>>>({})
  const formRef = useRef<HTMLFormElement>(null)
  // The saved row replaces the cached one before the dialog hears of it.
  const save = useSaveConfig(config.id, (saved) => onSaved(saved, M.configUpdated))
  const set = <K extends keyof ConfigForm>(key: K, value: ConfigForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (save.isPending) return
    const checked = validateConfigForm(form)
    if ('errors' in checked) {
      setErrors(checked.errors)
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    save.mutate(checked.body)
  }
  return (
    <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
      <p className="pk-muted pk-m0">
        For technicians of {config.branch} in {config.department}: the manager hears of a certification 7 days before it expires, the operations manager and the additional emails
        once it has expired. Leave an email empty for none.
      </p>
      {CONFIG_EMAIL_FIELDS.map(({ key, label }) => (
        <TextField key={key} label={label} type="email" inputMode="email" autoComplete="off" value={form[key]} onChange={(e) => set(key, e.target.value)} error={errors[key]} />
      ))}
      <label className="pk-check">
        <input type="checkbox" checked={form.is_active} onChange={(e) => set('is_active', e.target.checked)} />
        Active Configuration
      </label>
      {save.isError ? <Alert>{saveConfigFailed(save.error)}</Alert> : null}
      <div className="pk-row pk-justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  )
}
