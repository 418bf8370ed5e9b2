import { describe, expect, inject, it } from 'vitest'
import { TechnicianProfile } from '@portal/contracts'

// The certification slice through the gateway of the portal `npm start` runs: the demo reached
// svc-certs through identity's events, proofs stream through the gateway both ways, and nobody
// reads a profile they may not. (The screens' journeys are mf-certifications'.)
const baseURL = inject('baseURL')

async function logIn(email: string, password: string) {
  const res = await fetch(`${baseURL}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  expect(res.status).toBe(200)
  const { token, user } = (await res.json()) as { token: string; user: { id: string } }
  return { token, id: user.id, auth: { authorization: `Bearer ${token}` } }
}

describe('certifications through the gateway', () => {
  it('shows the demo technicians’ certifications, takes a proof and gives it back, and keeps profiles private', async () => {
    const portland = await logIn('tech.portland@example.com', 'Tech1234!')
    // The demo is seeded once the demo users reached svc-certs; allow the start a moment.
    let profile: TechnicianProfile | undefined
    await expect
      .poll(
        async () => {
          const res = await fetch(`${baseURL}/api/technician/profile/${portland.id}`, { headers: portland.auth })
          profile = res.ok ? TechnicianProfile.parse(await res.json()) : undefined
          return profile?.certifications.length ?? 0
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(3)
    expect(profile!.user).toMatchObject({ name: 'Pat Portland', employee_id: 'E1001', branch: 'Portland', department: 'Service' })
    expect(new Set(profile!.certifications.map((c) => c.status))).toEqual(new Set(['Uploaded', 'Completed', 'Not Uploaded', 'Verified', 'Expired']))

    // Upload a proof for the one without, through the gateway, and read it back.
    const missing = profile!.certifications.find((c) => c.status === 'Not Uploaded')!
    const pdf = Buffer.from('%PDF-1.4\n% e2e proof\n%%EOF\n')
    const form = new FormData()
    form.append('certification_id', String(missing.certification_id))
    form.append('obtained_date', missing.obtained_date!)
    form.append('file', new Blob([pdf]), 'lockout card.pdf')
    const uploaded = await fetch(`${baseURL}/api/technician/certifications/upload`, { method: 'POST', headers: portland.auth, body: form })
    expect(uploaded.status).toBe(200)
    const { certification } = (await uploaded.json()) as { certification: { file_path: string; status: string } }
    expect(certification.status).toBe('Uploaded')
    const download = await fetch(`${baseURL}/api${certification.file_path}?download=1`, { headers: portland.auth })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''lockout%20card.pdf`)
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true)

    // A renamed executable is refused by content.
    const bad = new FormData()
    bad.append('file', new Blob([Buffer.from('MZ\x90\x00 not a pdf')]), 'proof.pdf')
    const refused = await fetch(`${baseURL}/api${certification.file_path}`, { method: 'POST', headers: portland.auth, body: bad })
    expect(refused.status).toBe(415)
    expect(((await refused.json()) as { message: string }).message).toBe('Please select a PDF, JPEG, or PNG file.')

    // Another technician cannot open it; the Portland manager can; the admin sees the overview.
    const seattle = await logIn('tech.seattle@example.com', 'Tech1234!')
    expect((await fetch(`${baseURL}/api/technician/profile/${portland.id}`, { headers: seattle.auth })).status).toBe(403)
    const manager = await logIn('manager@example.com', 'Manager123!')
    expect((await fetch(`${baseURL}/api/technician/profile/${portland.id}`, { headers: manager.auth })).status).toBe(200)
    expect((await fetch(`${baseURL}/api/technician/profile/${seattle.id}`, { headers: manager.auth })).status).toBe(403)
    const admin = await logIn('admin@example.com', 'Admin123!')
    const overview = (await (await fetch(`${baseURL}/api/admin/certifications/overview`, { headers: admin.auth })).json()) as { types_total: number; technicians: number }
    expect(overview.types_total).toBeGreaterThanOrEqual(15)
    // The demo's six, and whoever the other journeys registered.
    expect(overview.technicians).toBeGreaterThanOrEqual(6)
  })
})
