import type { UserCertification } from '@portal/contracts'
import type { UploadOptions } from '@portal/ui-kit'
import { useMutation, type UseMutationOptions } from '@tanstack/react-query'
import { replaceProof, uploadProof } from '../upload-api.ts'

// The proof upload's hook, apart from the profile's other hooks (data/apiHooks.ts) as its calls are
// (upload-api.ts): only the upload dialog, loaded when it opens, needs them.

type Transfer = Pick<UploadOptions<unknown>, 'onProgress' | 'signal'>
type Uploaded = Awaited<ReturnType<typeof uploadProof>>

/**
 * Uploads the proof of a held certification, or replaces it when the certification has one.
 * `transfer` starts each upload (its progress and its abort signal); the dialog refreshes the
 * profile through `onSuccess`.
 */
export const useUploadProof = (
  cert: UserCertification,
  transfer: () => Transfer,
  callbacks: Pick<UseMutationOptions<Uploaded, Error, FormData>, 'onSuccess' | 'onError' | 'onSettled'>,
) =>
  useMutation({
    mutationFn: (data: FormData) => {
      const opts = transfer()
      return cert.file_name !== null ? replaceProof(cert.id, data, opts) : uploadProof(data, opts)
    },
    ...callbacks,
  })
