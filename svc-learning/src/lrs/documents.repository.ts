import { createHash } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { sqlWithParams } from '../sql.ts'
import { agentKey } from './agents.ts'
import type { XapiDocument, XapiDocumentKind, XapiActor } from './types.ts'

/** Where a document lives: its kind and the activity / agent / registration it belongs to. */
export interface DocumentScope {
  kind: XapiDocumentKind
  activityId?: string
  agent?: XapiActor
  registration?: string | null
}

export interface StoredDocument {
  content: Buffer
  contentType: string
  etag: string
  updated: Date
}

const keyOf = (s: DocumentScope) => [s.kind, s.activityId ?? '', s.agent ? agentKey(s.agent) : '', s.registration ?? '']

/** The ETag of a document's bytes (SHA-1 hex, as the xAPI spec's examples use). */
export const etagOf = (content: Buffer) => createHash('sha1').update(content).digest('hex')

/** Stores (or replaces) one State, Activity Profile or Agent Profile document. */
export async function putDocument(em: EntityManager, doc: XapiDocument & { now?: Date }): Promise<void> {
  await sqlWithParams(
    em,
    `insert into xapi_documents (kind, activity_id, agent_key, registration, document_id, content, content_type, etag, updated)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (kind, activity_id, agent_key, registration, document_id)
     do update set content = excluded.content, content_type = excluded.content_type, etag = excluded.etag, updated = excluded.updated`,
    [...keyOf(doc), doc.documentId, doc.content, doc.contentType, etagOf(doc.content), (doc.now ?? new Date()).toISOString()],
  )
}

/** One document, or null; `lock` holds its row until the transaction ends (read-modify-write). */
export async function getDocument(em: EntityManager, scope: DocumentScope, documentId: string, lock = false): Promise<StoredDocument | null> {
  const [row] = await sqlWithParams<{ content: Buffer; content_type: string; etag: string; updated: Date }>(
    em,
    `select content, content_type, etag, updated from xapi_documents
     where kind = $1 and activity_id = $2 and agent_key = $3 and registration = $4 and document_id = $5${lock ? ' for update' : ''}`,
    [...keyOf(scope), documentId],
  )
  return row ? { content: row.content, contentType: row.content_type, etag: row.etag, updated: new Date(row.updated) } : null
}

/** The ids of a scope's documents (updated after `since` when given). */
export async function listDocumentIds(em: EntityManager, scope: DocumentScope, since?: string): Promise<string[]> {
  const rows = await sqlWithParams<{ document_id: string }>(
    em,
    `select document_id from xapi_documents
     where kind = $1 and activity_id = $2 and agent_key = $3 and registration = $4 and ($5::timestamptz is null or updated > $5::timestamptz)
     order by document_id`,
    [...keyOf(scope), since ?? null],
  )
  return rows.map((r) => r.document_id)
}

/** Deletes one document (`documentId`) or all of a scope's (null); answers how many went. */
export async function deleteDocuments(em: EntityManager, scope: DocumentScope, documentId: string | null): Promise<number> {
  const rows = await sqlWithParams(
    em,
    `delete from xapi_documents
     where kind = $1 and activity_id = $2 and agent_key = $3 and registration = $4 and ($5::text is null or document_id = $5)
     returning 1`,
    [...keyOf(scope), documentId],
  )
  return rows.length
}
