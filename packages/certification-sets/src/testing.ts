// Test support of @ecf/certification-sets (its `testing` export): workbook material shared by the
// tests of the workspaces that read, run or judge certification workbooks.

/**
 * The beer row of the tax authority's certification workbooks, cell by cell as it writes it: one
 * item with additional taxes 006 (specific ISC, its amount on the 006 group only) and 023 (ad
 * valorem, its own amount only). `MontoTotal` is the workbook's, a cent below the sum.
 */
export const BEER_ROW: Readonly<Record<string, string>> = {
  'FormaPago[1]': '1',
  'MontoPago[1]': '4674.35',
  MontoGravadoTotal: '3230.00',
  MontoGravadoI1: '3230.00',
  ITBIS1: '18',
  TotalITBIS: '713.04',
  TotalITBIS1: '713.04',
  MontoImpuestoAdicional: '731.32',
  'TipoImpuesto[1]': '006',
  'TasaImpuestoAdicional[1]': '633.85',
  'MontoImpuestoSelectivoConsumoEspecifico[1]': '540.04',
  'TipoImpuesto[2]': '023',
  'TasaImpuestoAdicional[2]': '10',
  'MontoImpuestoSelectivoConsumoAdvalorem[2]': '191.28',
  MontoTotal: '4674.35',
  'NumeroLinea[1]': '1',
  'IndicadorFacturacion[1]': '1',
  'NombreItem[1]': 'PTE. CJ 24/12OZ',
  'IndicadorBienoServicio[1]': '1',
  'CantidadItem[1]': '2.00',
  'UnidadMedida[1]': '6',
  'CantidadReferencia[1]': '24',
  'UnidadReferencia[1]': '5',
  'Subcantidad[1][1]': '0.355',
  'CodigoSubcantidad[1][1]': '24',
  'GradosAlcohol[1]': '5.00',
  'PrecioUnitarioReferencia[1]': '65.00',
  'PrecioUnitarioItem[1]': '1615.00',
  'TipoImpuesto[1][1]': '006',
  'TipoImpuesto[1][2]': '023',
  'MontoItem[1]': '3230.00',
};
