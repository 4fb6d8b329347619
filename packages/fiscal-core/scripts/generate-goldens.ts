/**
 * Rewrites the golden documents under `test/golden/` (signed e-CF of every type, RFCE, ACECF, ARECF,
 * ANECF) from the fixed fixtures in `test/golden/fixtures.ts`, signed with `test/golden/test-certificate.p12`.
 *
 * Run from packages/fiscal-core after an intended change of output, then review the diff:
 *   ../../scripts/node24.sh node --import tsx scripts/generate-goldens.ts
 */
import { writeFileSync } from 'node:fs';
import { buildGoldenDocuments, loadGoldenCertificate } from '../test/golden/golden-documents.ts';

for (const document of buildGoldenDocuments(loadGoldenCertificate())) {
  // Written exactly as produced: no BOM, no XML declaration, no trailing newline.
  writeFileSync(new URL(`../test/golden/${document.file}`, import.meta.url), document.signedXml, 'utf8');
  console.log(`wrote test/golden/${document.file}`);
}
