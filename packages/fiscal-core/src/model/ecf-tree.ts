/**
 * The internal model of an e-CF: the tax authority's own structure, as a tree of element names.
 *
 * Both submission formats end here. The tax-authority-shaped JSON maps onto it almost directly;
 * the simplified contract is translated into it. Leaves are strings already formatted as the XML
 * wants them (decimals with their fixed digits, dates `DD-MM-YYYY`), repeated elements are arrays
 * under the element's own name (`TablaTelefonoEmisor.TelefonoEmisor[]`, `DetallesItems.Item[]`),
 * and an absent element is simply missing (or `undefined`).
 *
 * The XML writer serializes such a tree in the element order of the type's official XSD, so
 * member order in these objects carries no meaning.
 */
export type TEcfValue = string | TEcfTree | ReadonlyArray<string | TEcfTree>;

/** One element with children: member names are XML element names. */
export type TEcfTree = { readonly [elementName: string]: TEcfValue | undefined };

/** The e-CF type codes the tax authority defines (the contract's list). */
export { ECF_TYPES, type TEcfType } from '@ecf/contract';

/** A whole document: the root `ECF` element. */
export type TEcfDocument = { readonly ECF: TEcfTree };
