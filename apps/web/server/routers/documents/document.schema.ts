import { z } from 'zod';
import { ZIssuedDocument as ZIssuedDocumentItem } from '@ecf/contract';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

export const ZEnvironment = z.enum(ENVIRONMENTS, { error: 'Ambiente no válido.' });

/** An item of the issued list, as the REST API lists it (`IssuedDocument`), without its printing links. */
export const ZIssuedDocument = ZIssuedDocumentItem.omit({ printing: true });

/** Pick the list's members the portal uses out of `toIssuedDocument`'s answer. */
export function issuedDocumentOf(item: z.input<typeof ZIssuedDocument>): z.infer<typeof ZIssuedDocument> {
  return ZIssuedDocument.parse(item);
}
