import { UNREADABLE_CLIENT_SECRET, type SignInProvider } from '@portal/contracts'
import { Alert, Button, Modal, Select, Switch, TextField, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { useSaveProvider } from './data/apiHooks.ts'
import { CLAIM_FIELDS, MANAGER_SCOPE_OPTIONS, checkForm, emptyForm, formOf, keyFrom, type ProviderForm } from './provider-form.ts'

/** Where the provider sends people back, to register there (the server answers it for a saved provider). */
const callbackOf = (key: string) => `${globalThis.location?.origin ?? ''}/api/auth/oidc/${key || '{key}'}/callback`

/**
 * Add / Edit Sign-in Provider: the provider's address and client, who may sign in, the claims that
 * fill a person's profile, the groups that make admins and managers, and whether portal passwords
 * stay. The client secret is write-only: left empty on edit, the stored one is kept.
 */
export const ProviderDialog = ({
  editing,
  companyDomain,
  onClose,
  onSaved,
}: {
  editing: SignInProvider | null
  companyDomain: string
  onClose: () => void
  onSaved: (p: SignInProvider) => void
}) => {
  const [form, setForm] = useState<ProviderForm>(() => (editing ? formOf(editing) : emptyForm()))
  const [keyTouched, setKeyTouched] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const save = useSaveProvider(editing, onSaved)
  const set = <K extends keyof ProviderForm>(k: K, v: ProviderForm[K]) => setForm((f) => ({ ...f, [k]: v }))
  const name = form.display_name.trim() || 'the provider'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.reset()
    const checked = checkForm(form, editing !== null)
    if (!checked.ok) {
      setErrors(checked.errors)
      // After the marks have rendered, focus goes to the first field in error (its message is read).
      requestAnimationFrame(() => focusFirstInvalid(formRef.current))
      return
    }
    setErrors({})
    save.mutate(checked.body)
  }

  return (
    <Modal open title={editing ? `Edit ${editing.display_name}` : 'Add Sign-in Provider'} onClose={onClose}>
      <form ref={formRef} className="pk-stack pk-wide" onSubmit={submit} noValidate aria-label={editing ? 'Edit sign-in provider' : 'Add sign-in provider'}>
        <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0">
          <legend className="pk-fw-semibold">Provider</legend>
          <div className="pk-row pk-items-start">
            <div className="pk-grow-240">
              <TextField
                label="Display name"
                required
                value={form.display_name}
                error={errors.display_name}
                hint='Shown on the login page as "Sign in with …"'
                onChange={(e) => {
                  const display_name = e.target.value
                  setForm((f) => ({ ...f, display_name, key: editing || keyTouched ? f.key : keyFrom(display_name) }))
                }}
              />
            </div>
            <div className="pk-grow-200">
              <TextField
                label="Key"
                required
                readOnly={editing !== null}
                value={form.key}
                error={errors.key}
                hint="Part of the provider's addresses; cannot change later"
                onChange={(e) => {
                  setKeyTouched(true)
                  set('key', e.target.value)
                }}
              />
            </div>
          </div>
          <TextField
            label="Issuer URL"
            type="url"
            required
            value={form.issuer}
            error={errors.issuer}
            hint="e.g. https://login.microsoftonline.com/{tenant}/v2.0 — the portal reads its /.well-known/openid-configuration"
            onChange={(e) => set('issuer', e.target.value)}
          />
          <div className="pk-row pk-items-start">
            <div className="pk-grow-240">
              <TextField label="Client ID" required autoComplete="off" value={form.client_id} error={errors.client_id} onChange={(e) => set('client_id', e.target.value)} />
            </div>
            <div className="pk-grow-240">
              <TextField
                label="Client secret"
                type="password"
                autoComplete="new-password"
                value={form.client_secret}
                error={errors.client_secret}
                hint={
                  editing
                    ? editing.client_secret_unreadable
                      ? UNREADABLE_CLIENT_SECRET
                      : editing.client_secret_set
                        ? 'A secret is stored. Leave empty to keep it.'
                        : 'No secret is stored (a public client). Leave empty to keep it so.'
                    : 'Leave empty for a public client (PKCE only).'
                }
                onChange={(e) => set('client_secret', e.target.value)}
              />
            </div>
          </div>
          <p className="pk-muted pk-m0">
            Register this redirect URI at the provider: <code>{editing ? editing.redirect_uri : callbackOf(form.key)}</code>
          </p>
        </fieldset>

        <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0">
          <legend className="pk-fw-semibold">Who may sign in</legend>
          <div className="pk-row pk-items-start">
            <div className="pk-grow-240">
              <TextField
                label="Allowed e-mail domains"
                value={form.allowed_domains}
                error={errors.allowed_domains}
                hint={`Separated by commas. Empty: the company's domain (${companyDomain}).`}
                onChange={(e) => set('allowed_domains', e.target.value)}
              />
            </div>
            <div className="pk-grow-240">
              <TextField label="Scopes" value={form.scopes} error={errors.scopes} hint="Separated by spaces; openid is required." onChange={(e) => set('scopes', e.target.value)} />
            </div>
          </div>
        </fieldset>

        <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0">
          <legend className="pk-fw-semibold">Claims</legend>
          <p className="pk-muted pk-m0">Which claim of the ID token or userinfo fills each field. Empty: not mapped (people fill it in themselves).</p>
          <div className="pk-grid">
            {CLAIM_FIELDS.map(([field, label]) => (
              <TextField
                key={field}
                label={label}
                value={form.claims[field]}
                error={errors[`claims.${field}`]}
                onChange={(e) => setForm((f) => ({ ...f, claims: { ...f.claims, [field]: e.target.value } }))}
              />
            ))}
          </div>
        </fieldset>

        <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0">
          <legend className="pk-fw-semibold">Roles</legend>
          <p className="pk-muted pk-m0">With a group or role claim mapped, the provider decides who is an admin or a manager at each sign-in.</p>
          <div className="pk-row pk-items-start">
            <div className="pk-grow-200">
              <TextField
                label="Admin group values"
                value={form.admin_values}
                error={errors['roles.admin_values']}
                hint="Separated by commas"
                onChange={(e) => set('admin_values', e.target.value)}
              />
            </div>
            <div className="pk-grow-200">
              <TextField
                label="Manager group values"
                value={form.manager_values}
                error={errors['roles.manager_values']}
                hint="Separated by commas"
                onChange={(e) => set('manager_values', e.target.value)}
              />
            </div>
            <div className="pk-grow-200">
              <Select
                label="Manager scope"
                options={MANAGER_SCOPE_OPTIONS}
                value={form.manager_scope}
                error={errors['roles.manager_scope']}
                onChange={(e) => set('manager_scope', e.target.value as ProviderForm['manager_scope'])}
              />
            </div>
          </div>
        </fieldset>

        <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0">
          <legend className="pk-fw-semibold">Passwords</legend>
          <div className="pk-row">
            <Switch
              text="Local passwords"
              aria-label="Local passwords allowed for these domains"
              checked={form.local_passwords}
              onToggle={() => set('local_passwords', !form.local_passwords)}
            />
            <Switch
              text="Admin break-glass"
              aria-label="Admin break-glass password sign-in"
              checked={form.admin_break_glass}
              onToggle={() => set('admin_break_glass', !form.admin_break_glass)}
            />
          </div>
          {!form.local_passwords ? <p className="pk-muted pk-m0">People of these domains sign in with {name} only; their portal passwords stop working.</p> : null}
          {!form.local_passwords && !form.admin_break_glass ? (
            <Alert>Warning: admins cannot sign in with a password either. If {name} is down or its settings are wrong, no one can sign in to the portal to fix it.</Alert>
          ) : null}
        </fieldset>

        {Object.keys(errors).length > 0 ? <Alert>Please correct the fields marked above.</Alert> : null}
        {save.isError ? <Alert>{errorMessage(save.error, editing ? 'Failed to update the provider' : 'Failed to add the provider')}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Provider'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
