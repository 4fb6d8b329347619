/**
 * The seed authentication both the tax authority and every electronic receiver speak (FACTS §1.2,
 * §2): the server hands out a seed XML, the caller signs it with its certificate and uploads it as
 * `semilla.xml`, the server answers a token. The steps both clients share live here.
 */
import { signForeignXml, type TSigningCertificate } from '@ecf/fiscal-core';
import { buildXmlMultipart, type TMultipartBody } from './multipart.ts';

/** File name of the signed seed in the validation upload. */
export const SEED_FILE_NAME = 'semilla.xml';

/** The signed seed ready to upload, or why the seed could not be signed (not well-formed XML). */
export type TSignedSeed = { ok: true; xml: string } | { ok: false; message: string };

/** Signs a seed answer (XMLDSig, enveloped) with the caller's certificate. */
export function signSeed(seedXml: string, certificate: TSigningCertificate): TSignedSeed {
  const signed = signForeignXml(seedXml, certificate);
  if (signed.success) return { ok: true, xml: signed.data.xml };
  return { ok: false, message: signed.issues.map((issue) => issue.message).join('; ') };
}

/** The validation upload of a signed seed: one multipart part `xml` named `semilla.xml`. */
export function signedSeedUpload(signedSeedXml: string): TMultipartBody {
  return buildXmlMultipart(signedSeedXml, SEED_FILE_NAME);
}

/**
 * The token of a validation answer as receivers write it: JSON with `token` in any letter case, or
 * XML with a `<token>` element (Accept is only a preference). Undefined when there is none.
 */
export function tokenOfValidationAnswer(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const entry = Object.entries(parsed).find(([name]) => name.toLowerCase() === 'token');
      if (typeof entry?.[1] === 'string' && entry[1] !== '') return entry[1];
    }
  } catch {
    // An XML answer.
  }
  const match = /<token>([^<]+)<\/token>/i.exec(body);
  return match?.[1]?.trim() || undefined;
}
