/**
 * @ecf/fiscal-core: the pure domain of e-CF issuance. No I/O: no database, no environment,
 * no network, no clock unless passed in. Certificates and keys come in as arguments.
 */
export { escapeText, escapeAttribute, writeXml, leaf, element, type TXmlNode } from './xml/canonical.ts';
export { ECF_TYPES, type TEcfType, type TEcfTree, type TEcfValue, type TEcfDocument } from './model/ecf-tree.ts';
