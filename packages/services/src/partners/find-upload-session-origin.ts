import type { TDatabase } from '@ecf/db';
import { findUploadSession } from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';

/**
 * The browser origin of an open upload session (a CORS preflight carries no token: it learns only
 * which origin may send the upload); null when there is no open session with that id.
 */
export async function findUploadSessionOrigin(options: {
  database: TDatabase;
  uploadId: string;
}): Promise<string | null> {
  if (!isUuid(options.uploadId)) return null;
  const session = await findUploadSession(options.database, options.uploadId.toLowerCase());
  if (session === null || session.completedAt !== null || session.expiresAt.getTime() <= Date.now())
    return null;
  return session.browserOrigin;
}
