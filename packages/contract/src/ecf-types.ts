/** The e-CF type codes the tax authority defines. */
export const ECF_TYPES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const;
export type TEcfType = (typeof ECF_TYPES)[number];
