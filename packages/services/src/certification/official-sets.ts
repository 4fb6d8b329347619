/**
 * The catalogue of official sets (Partner `GET /certification/official-sets`). The tax authority
 * generates each taxpayer's test set for its RNC, so no set is official for every account: the
 * catalogue is empty unless the operator lists sets here, and `defaultRef` is null. The simulation
 * model set (the tax authority's model used with `taxauthModel`) is never listed.
 */
export type TOfficialSet = { ref: string; name: string; description: string };

const CATALOGUE: readonly TOfficialSet[] = [];

/** The catalogue and its default. */
export function listOfficialSets(): { items: TOfficialSet[]; defaultRef: string | null } {
  return { items: [...CATALOGUE], defaultRef: CATALOGUE[0]?.ref ?? null };
}

/** An official set by its ref, or null. */
export function findOfficialSet(ref: string): TOfficialSet | null {
  return CATALOGUE.find((set) => set.ref === ref) ?? null;
}
