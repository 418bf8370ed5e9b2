import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { assertSafeKey } from './storage-key.ts'
import type { Storage } from './storage.ts'

export interface S3StorageOptions {
  /** Endpoint of an S3-compatible server (MinIO, s3rver); absent for AWS itself. */
  endpoint?: string
  region: string
  bucket: string
  accessKeyId?: string
  secretAccessKey?: string
  /** `http://host/bucket/key` addressing (MinIO and most S3-compatible servers need it). */
  forcePathStyle?: boolean
  /** This service's folder in the bucket (`learning`, `certs`): services share a bucket, not keys. */
  prefix?: string
  /** Part size of streamed uploads (bytes, at least 5 MiB; default 8 MiB). */
  partSize?: number
}

export interface S3Storage extends Storage {
  readonly kind: 's3'
  /** Creates the bucket when it does not exist yet (compose's MinIO starts empty). */
  ensureBucket(): Promise<void>
  /** Closes the client's sockets. */
  destroy(): void
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404
}

/**
 * Storage in an S3-compatible bucket (cluster mode: MinIO in compose). Uploads stream in parts
 * (`@aws-sdk/lib-storage`): an object appears whole when the upload completes, and a failed one is
 * aborted, so a reader never sees half an object. Ranges are passed to GetObject.
 */
export function createS3Storage(opts: S3StorageOptions): S3Storage {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
    credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
  })
  const Bucket = opts.bucket
  const base = opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : ''
  const full = (key: string) => {
    assertSafeKey(key)
    return base + key
  }

  /** Every key (with the service prefix) that starts with `start`. */
  async function* keysUnder(start: string) {
    let ContinuationToken: string | undefined
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: start, ContinuationToken }))
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (ContinuationToken)
  }

  const storage: S3Storage = {
    kind: 's3',
    async put(key, source) {
      let size = 0
      let sourceError: unknown
      // The uploader keeps chunks until a part is full, and a source may reuse its buffer: copy each.
      async function* copied() {
        try {
          for await (const chunk of source as AsyncIterable<Uint8Array>) {
            size += chunk.length
            yield Buffer.from(chunk)
          }
        } catch (err) {
          sourceError = err
          throw err
        }
      }
      const upload = new Upload({
        client,
        params: { Bucket, Key: full(key), Body: Readable.from(copied()) },
        partSize: opts.partSize ?? 8 * 1024 * 1024,
        queueSize: 2,
        leavePartsOnError: false,
      })
      try {
        await upload.done()
      } catch (err) {
        // The source's own failure (e.g. a file over its limit) is the one to report, not what
        // aborting the multipart upload said.
        throw sourceError ?? err
      }
      return { size }
    },
    async get(key, range) {
      const out = await client.send(new GetObjectCommand({ Bucket, Key: full(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
      return out.Body as Readable
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }))
        return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) }
      } catch (err) {
        if (isNotFound(err)) return null
        throw err
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }))
    },
    async deletePrefix(prefix) {
      let batch: { Key: string }[] = []
      const flush = async () => {
        if (batch.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch, Quiet: true } }))
        batch = []
      }
      for await (const Key of keysUnder(`${full(prefix)}/`)) {
        batch.push({ Key })
        if (batch.length === 1000) await flush()
      }
      await flush()
    },
    async list(prefix) {
      const keys: string[] = []
      for await (const key of keysUnder(prefix ? `${full(prefix)}/` : base)) keys.push(key.slice(base.length))
      return keys.sort()
    },
    async withLocalFile(key, fn) {
      const dir = await mkdtemp(join(tmpdir(), 's3-object-'))
      try {
        const path = join(dir, 'object')
        await pipeline(await storage.get(key), createWriteStream(path))
        return await fn(path)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }))
      } catch (err) {
        if (!isNotFound(err)) throw err
        await client.send(new CreateBucketCommand({ Bucket })).catch((e: { name?: string }) => {
          // Created meanwhile by another instance.
          if (e?.name !== 'BucketAlreadyOwnedByYou' && e?.name !== 'BucketAlreadyExists') throw e
        })
      }
    },
    destroy: () => client.destroy(),
  }
  return storage
}
