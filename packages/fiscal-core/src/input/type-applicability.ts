import type { TEcfType } from '../model/ecf-tree.ts';

/**
 * The e-CF types whose official XSD declares each optional element the simplified contract can fill
 * (read from `e-CF NN v.1.0.xsd`). A simplified property whose element the type lacks is a 422 on
 * that property (rule 13) instead of an XSD failure on `ECF`.
 */
const TYPES_BY_ELEMENT: Readonly<Record<string, string>> = {
  IndicadorEnvioDiferido: '31 32 33 34 44 45 46',
  IndicadorMontoGravado: '31 32 33 34 41 45',
  TipoIngresos: '31 32 33 34 44 45 46',
  FechaLimitePago: '31 32 33 34 41 44 45 46 47',
  TerminoPago: '31 32 33 41 44 45 46 47',
  TablaFormasPago: '31 32 33 41 44 45 46 47',
  CodigoVendedor: '31 32 33 34 44 45 46',
  Comprador: '31 32 33 34 41 44 45 46 47',
  RNCComprador: '31 32 33 34 41 44 45 46',
  IdentificadorExtranjero: '32 33 34 44 46 47',
  RazonSocialComprador: '31 32 33 34 41 44 45 46 47',
  ContactoComprador: '31 32 33 34 41 44 45 46',
  CorreoComprador: '31 32 33 34 41 44 45 46',
  DireccionComprador: '31 32 33 34 41 44 45 46',
  MunicipioComprador: '31 32 33 34 41 44 45 46',
  ProvinciaComprador: '31 32 33 34 41 44 45 46',
  FechaEntrega: '31 32 33 34 44 45 46',
  ContactoEntrega: '31 32 33 34 44 45 46',
  DireccionEntrega: '31 32 33 34 44 45 46',
  TelefonoAdicional: '31 32 33 34 44 45 46',
  FechaOrdenCompra: '31 32 33 34 44 45 46',
  NumeroOrdenCompra: '31 32 33 34 44 45 46',
  CodigoInternoComprador: '31 32 33 34 41 44 45 46',
  Transporte: '31 32 33 34 44 45 46',
  DescuentosORecargos: '31 32 33 34 41 44 45 46',
  DescuentoMonto: '31 32 33 34 41 44 45 46',
  RecargoMonto: '31 32 33 34 41 44 45 46',
  Retencion: '31 33 34 41 47',
  MontoITBISRetenido: '31 33 34 41',
  MontoISRRetenido: '31 33 34 41 47',
  MontoNoFacturable: '31 32 33 34 44 45 46',
  MontoExento: '31 32 33 34 41 43 44 45 47',
  RazonModificacion: '33 34',
};

/** Whether the type's XSD has the element; elements not listed exist in every type. */
export function typeHasElement(type: TEcfType, element: string): boolean {
  const types = TYPES_BY_ELEMENT[element];
  return types === undefined || types.split(' ').includes(type);
}

/** ITBIS treatment each type admits on its lines: indicators 1-3 (18/16/0 %), 4 exempt. */
export function allowedRateIndicators(type: TEcfType): readonly number[] {
  switch (type) {
    case '43':
    case '44':
    case '47':
      return [4];
    case '46':
      return [3];
    default:
      return [1, 2, 3, 4];
  }
}

/** Types whose sequence has no expiration date (FACTS §4.3; rule 16). */
export function isSequenceExpirationApplicable(type: TEcfType): boolean {
  return type !== '32' && type !== '34';
}
