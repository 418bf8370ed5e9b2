import { UserCertificationResponse } from '@portal/contracts'
import { uploadWithProgress, type UploadOptions } from '@portal/ui-kit'

// The proof uploads, apart from the profile's other calls: only the upload dialog (loaded when it opens) needs them.

/** Multipart: `certification_id`, `file`, `obtained_date`, `expiration_date`, `notes` (learner §7), with upload progress. */
export const uploadProof = (form: FormData, opts: Pick<UploadOptions<unknown>, 'onProgress' | 'signal'>) =>
  uploadWithProgress('POST', '/technician/certifications/upload', form, { ...opts, schema: UserCertificationResponse })
/** Multipart with only `file`: replaces the proof of a held certification, its dates untouched. */
export const replaceProof = (id: number, form: FormData, opts: Pick<UploadOptions<unknown>, 'onProgress' | 'signal'>) =>
  uploadWithProgress('POST', `/technician/certifications/${id}/file`, form, { ...opts, schema: UserCertificationResponse })
